package s3bucket

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// reasonDestinationNotVersioned is the reason of the Ready condition of a bucket whose
// replication destination does not have versioning enabled, which S3 requires.
const reasonDestinationNotVersioned = "DestinationNotVersioned"

// replication is a replication configuration in a form both the spec and S3's answer convert
// to: the role S3 assumes and the rules.
type replication struct {
	Role  string
	Rules []replicationRule
}

// replicationRule is one replication rule: its destination is the bucket's ARN, its tags none
// (not an empty map) when the filter has none.
type replicationRule struct {
	ID            string
	Priority      int32
	Enabled       bool
	Prefix        string
	Tags          map[string]string
	Destination   string
	StorageClass  string
	DeleteMarkers bool
	// bucket is the destination's name, and byRef the S3Bucket that names it when the spec
	// gives it by reference (the spec's rules only).
	bucket, byRef string
}

// desiredReplication returns the spec's replication configuration, its references resolved
// into their ARN and name fields, for a bucket in partition; nil for none.
func desiredReplication(s *v1alpha1.S3BucketSpec, partition string) *replication {
	if s.Replication == nil {
		return nil
	}
	out := &replication{Role: s.Replication.RoleARN}
	for _, r := range s.Replication.Rules {
		rule := replicationRule{ID: r.ID, Priority: r.Priority, Enabled: r.Status != string(types.ReplicationRuleStatusDisabled),
			Destination: "arn:" + partition + ":s3:::" + r.Destination.BucketName, StorageClass: r.Destination.StorageClass,
			DeleteMarkers: r.DeleteMarkerReplication, bucket: r.Destination.BucketName}
		if ref := r.Destination.BucketRef; ref != nil {
			rule.byRef = ref.Name
		}
		if f := r.Filter; f != nil {
			rule.Prefix = f.Prefix
			if len(f.Tags) > 0 {
				rule.Tags = f.Tags
			}
		}
		out.Rules = append(out.Rules, rule)
	}
	return out
}

// observedReplication returns the replication configuration c in the spec's form, or nil for
// none; with complete false when it holds what the spec cannot express (a rule without a
// filter, existing object replication, source selection criteria, a destination account,
// encryption, metrics or replication time control), so that it differs from every spec.
func observedReplication(c *types.ReplicationConfiguration) (r *replication, complete bool) {
	if c == nil {
		return nil, true
	}
	out, complete := &replication{Role: aws.ToString(c.Role)}, true
	for _, r := range c.Rules {
		rule := replicationRule{ID: aws.ToString(r.ID), Priority: aws.ToInt32(r.Priority), Enabled: r.Status == types.ReplicationRuleStatusEnabled,
			DeleteMarkers: r.DeleteMarkerReplication != nil && r.DeleteMarkerReplication.Status == types.DeleteMarkerReplicationStatusEnabled}
		complete = complete && r.Filter != nil && r.ExistingObjectReplication == nil && r.SourceSelectionCriteria == nil && r.Destination != nil
		if d := r.Destination; d != nil {
			rule.Destination, rule.StorageClass = aws.ToString(d.Bucket), string(d.StorageClass)
			complete = complete && d.Account == nil && d.AccessControlTranslation == nil && d.EncryptionConfiguration == nil && d.Metrics == nil && d.ReplicationTime == nil
		}
		if f := r.Filter; f != nil {
			tags := []types.Tag{}
			rule.Prefix = aws.ToString(f.Prefix)
			if f.Tag != nil {
				tags = append(tags, *f.Tag)
			}
			if a := f.And; a != nil {
				rule.Prefix = aws.ToString(a.Prefix)
				tags = append(tags, a.Tags...)
			}
			for _, t := range tags {
				if rule.Tags == nil {
					rule.Tags = map[string]string{}
				}
				rule.Tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
			}
		}
		out.Rules = append(out.Rules, rule)
	}
	return out, complete
}

// sameReplication compares replication configurations: the role, and the rules as a set keyed
// by id.
func sameReplication(want, got *replication) bool {
	if want == nil || got == nil {
		return want == got
	}
	if want.Role != got.Role || len(want.Rules) != len(got.Rules) {
		return false
	}
	for _, w := range want.Rules {
		i := slices.IndexFunc(got.Rules, func(g replicationRule) bool { return g.ID == w.ID })
		if i < 0 {
			return false
		}
		g := got.Rules[i]
		if g.Priority != w.Priority || g.Enabled != w.Enabled || g.Prefix != w.Prefix || !maps.Equal(g.Tags, w.Tags) ||
			g.Destination != w.Destination || g.StorageClass != w.StorageClass || g.DeleteMarkers != w.DeleteMarkers {
			return false
		}
	}
	return true
}

// replicationConfiguration returns the replication configuration S3 is given for want: every
// rule with a filter (the current schema, which needs a priority and the delete marker
// setting).
func replicationConfiguration(want *replication) *types.ReplicationConfiguration {
	c := &types.ReplicationConfiguration{Role: aws.String(want.Role)}
	for _, r := range want.Rules {
		rule := types.ReplicationRule{ID: aws.String(r.ID), Priority: aws.Int32(r.Priority), Status: types.ReplicationRuleStatusDisabled,
			Filter: replicationFilter(r), Destination: &types.Destination{Bucket: aws.String(r.Destination), StorageClass: types.StorageClass(r.StorageClass)},
			DeleteMarkerReplication: &types.DeleteMarkerReplication{Status: types.DeleteMarkerReplicationStatusDisabled}}
		if r.Enabled {
			rule.Status = types.ReplicationRuleStatusEnabled
		}
		if r.DeleteMarkers {
			rule.DeleteMarkerReplication.Status = types.DeleteMarkerReplicationStatusEnabled
		}
		c.Rules = append(c.Rules, rule)
	}
	return c
}

// replicationFilter returns the filter of r in S3's form: a prefix alone (empty for every
// object), a tag alone, or both under And.
func replicationFilter(r replicationRule) *types.ReplicationRuleFilter {
	tags := make([]types.Tag, 0, len(r.Tags))
	for _, k := range slices.Sorted(maps.Keys(r.Tags)) {
		tags = append(tags, types.Tag{Key: aws.String(k), Value: aws.String(r.Tags[k])})
	}
	switch {
	case len(tags) == 0:
		return &types.ReplicationRuleFilter{Prefix: aws.String(r.Prefix)}
	case len(tags) == 1 && r.Prefix == "":
		return &types.ReplicationRuleFilter{Tag: &tags[0]}
	}
	and := &types.ReplicationRuleAndOperator{Tags: tags}
	if r.Prefix != "" {
		and.Prefix = aws.String(r.Prefix)
	}
	return &types.ReplicationRuleFilter{And: and}
}

// planReplication plans the replication configuration of the bucket in st: one
// PutBucketReplication of the whole configuration when it differs from st's, once every
// destination may be written into and has versioning enabled (see checkDestination), or one
// DeleteBucketReplication, first of all changes (before versioning may be suspended), when the
// spec has none. A bucket that only observes compares the configuration and looks at no
// destination.
func (d *driver) planReplication(ctx context.Context, p *managed.Plan, b *v1alpha1.S3Bucket, st *State, observeOnly bool) error {
	want := desiredReplication(&b.Spec, provider.Partition(st.Region))
	if st.ReplicationComplete && sameReplication(want, st.Replication) {
		return nil
	}
	bucket := aws.String(st.Name)
	if want == nil {
		*p = append(managed.Plan{{Fields: []string{"replication"}, Apply: func(ctx context.Context) error {
			_, err := d.api.DeleteBucketReplication(ctx, &s3.DeleteBucketReplicationInput{Bucket: bucket})
			return managed.Wrap(err, "delete replication configuration of bucket %s", st.Name)
		}}}, *p...)
		return nil
	}
	if !observeOnly {
		checked := map[string]bool{}
		for _, r := range want.Rules {
			if !checked[r.Destination] {
				if err := d.checkDestination(ctx, b, r); err != nil {
					return err
				}
				checked[r.Destination] = true
			}
		}
	}
	p.Add("replication", func(ctx context.Context) error {
		_, err := d.api.PutBucketReplication(ctx, &s3.PutBucketReplicationInput{Bucket: bucket, ReplicationConfiguration: replicationConfiguration(want)})
		return managed.Wrap(err, "put replication configuration of bucket %s", st.Name)
	})
	return nil
}

// checkDestination returns nil when S3 may replicate into the destination of r: given by
// reference, the S3Bucket's spec enables versioning (the reference waited for it to be Ready,
// which it is once its spec is applied); given by name, the bucket is one an object of b's
// namespace made (managed.CheckForeignWrite on its tags) and GetBucketVersioning says Enabled.
// A destination without versioning waits, with reasonDestinationNotVersioned.
func (d *driver) checkDestination(ctx context.Context, b *v1alpha1.S3Bucket, r replicationRule) error {
	name := r.bucket
	if r.byRef != "" {
		dest := &v1alpha1.S3Bucket{}
		if err := d.kube.Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: r.byRef}, dest); err != nil {
			return fmt.Errorf("get the S3Bucket %s that spec.replication.rules[%s] names: %w", r.byRef, r.ID, err)
		}
		if v := dest.Spec.Versioning; v == nil || !v.Enabled {
			return managed.Waiting(reasonDestinationNotVersioned, "spec.replication.rules[%s]: the destination S3Bucket %s (bucket %s) does not enable versioning, "+
				"and S3 replicates only into versioned buckets: set versioning.enabled: true on it", r.ID, r.byRef, name)
		}
		return nil
	}
	tags, err := d.bucketTags(ctx, name)
	switch {
	case awserr.IsNotFound(err):
		return managed.Waiting(condition.ReasonNotFoundInAWS, "spec.replication.rules[%s]: the destination bucket %s does not exist", r.ID, name)
	case err != nil:
		return err
	}
	if err := managed.CheckForeignWrite(ctx, b, "S3 bucket", r.Destination, tags); err != nil {
		return err
	}
	out, err := d.api.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: aws.String(name)})
	switch {
	case awserr.Classify(err) == awserr.ClassAccessDenied:
		// Another account's bucket, which its owner allowed: S3 checks its versioning.
		return nil
	case err != nil:
		return fmt.Errorf("get versioning of bucket %s: %w", name, err)
	case out.Status != types.BucketVersioningStatusEnabled:
		return managed.Waiting(reasonDestinationNotVersioned, "spec.replication.rules[%s]: the destination bucket %s does not have versioning enabled, "+
			"and S3 replicates only into versioned buckets: enable it there", r.ID, name)
	}
	return nil
}

// replicationRoleField returns the path of the field that gives the replication role, for
// guardrail messages.
func replicationRoleField(r *v1alpha1.S3Replication) string {
	if r.RoleRef != nil {
		return "spec.replication.roleRef"
	}
	return "spec.replication.roleARN"
}

// guard refuses, before any AWS call, a replication role the namespace may not pass to S3:
// only roles its own IAMRole objects made (spec.replication.roleRef resolves to one) and those
// the administrator allows.
func guard(ctx context.Context, b *v1alpha1.S3Bucket, g managed.Guardrails) error {
	r := b.Spec.Replication
	if r == nil {
		return nil
	}
	return g.CheckPassedRoles(ctx, managed.PassedRole{Field: replicationRoleField(r), ARN: r.RoleARN})
}

// replicationSlots returns one slot per replication rule of b: the destination's reference and
// the name field it resolves into.
func replicationSlots(b *v1alpha1.S3Bucket) []managed.Slot {
	r := b.Spec.Replication
	if r == nil {
		return nil
	}
	slots := make([]managed.Slot, len(r.Rules))
	for i := range r.Rules {
		slots[i].Ref, slots[i].ID = r.Rules[i].Destination.BucketRef, &r.Rules[i].Destination.BucketName
	}
	return slots
}
