package secretsmanagersecret

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Staging labels of Secrets Manager.
const current = "AWSCURRENT"

// State is what Secrets Manager said about a secret.
type State struct {
	// Secret is DescribeSecret's answer.
	Secret *secretsmanager.DescribeSecretOutput
}

// Observe reads the secret with one DescribeSecret (and the Kubernetes Secret that holds its
// value, if any), fills the status and plans the changes that bring it in line with the spec.
// A secret awaiting deletion is gone for an object being deleted; for any other it is
// restored when it was this object's or an earlier object's of the same name.
func (d *driver) Observe(ctx context.Context, s *v1alpha1.SecretsManagerSecret, req managed.Request) (managed.Observation[State], error) {
	name := s.Spec.SecretName
	var want *value
	if !req.Deleting {
		// The value first: an object waiting for its Kubernetes Secret makes no AWS call.
		var err error
		if want, err = d.desired(ctx, s); err != nil {
			return managed.Observation[State]{}, err
		}
	}
	out, err := d.api.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(name)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("describe secret %s: %w", name, err)
	}
	tags := tagMap(out.Tags)
	if out.DeletedDate != nil {
		if req.Deleting {
			return managed.Observation[State]{}, nil
		}
		return d.observeScheduled(s, out, req, tags)
	}
	if err := managed.Claim(s, "Secrets Manager secret", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(s, out)
	obs := managed.Observation[State]{Exists: true, State: &State{Secret: out}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	d.plan(&obs.Changes, s, out, want, req.Tags)
	obs.Ready = true
	for _, r := range out.ReplicationStatus {
		if r.Status == types.StatusTypeFailed {
			obs.Ready = false
			obs.Message = fmt.Sprintf("the replica in %s failed: %s", aws.ToString(r.Region), aws.ToString(r.StatusMessage))
		}
	}
	return obs, nil
}

// observeScheduled handles a secret of the spec's name that awaits its deletion: when it was
// this object's (deleted outside the operator) or an earlier object's of the same name (the
// object was deleted and created again), the only change is to restore it and tag it as this
// object's; any other is left alone and the object reports it.
func (d *driver) observeScheduled(s *v1alpha1.SecretsManagerSecret, out *secretsmanager.DescribeSecretOutput, req managed.Request, tags map[string]string) (managed.Observation[State], error) {
	name := s.Spec.SecretName
	owned := managed.OwnedBy(s, tags)
	if !owned && !managed.Predecessor(req.Tags, tags) {
		return managed.Observation[State]{}, managed.Terminal(condition.ReasonScheduledForDeletion,
			"Secrets Manager secret %s is scheduled for deletion on %s and is not this object's; restore it (aws secretsmanager restore-secret) and adopt it with the annotation %s=%s, or choose another secretName",
			name, aws.ToTime(out.DeletedDate).Format("2006-01-02"), shared.AnnotationExternalName, name)
	}
	managed.SetExternalName(s, name)
	fillStatus(s, out)
	obs := managed.Observation[State]{Exists: true, State: &State{Secret: out},
		Message: fmt.Sprintf("secret %s was scheduled for deletion; restoring it", name)}
	if owned {
		obs.Tags = tags
	}
	obs.Changes.Add("restore", func(ctx context.Context) error {
		if _, err := d.api.RestoreSecret(ctx, &secretsmanager.RestoreSecretInput{SecretId: out.ARN}); err != nil {
			return managed.Wrap(err, "restore secret %s", name)
		}
		_, err := d.api.TagResource(ctx, &secretsmanager.TagResourceInput{SecretId: out.ARN, Tags: tagList(req.Tags)})
		return managed.Wrap(err, "tag restored secret %s", name)
	})
	return obs, nil
}

// fillStatus copies what Secrets Manager said about the secret into the status.
func fillStatus(s *v1alpha1.SecretsManagerSecret, out *secretsmanager.DescribeSecretOutput) {
	st := &s.Status
	st.SecretName, st.ARN = aws.ToString(out.Name), aws.ToString(out.ARN)
	st.VersionID = staged(out, current)
	st.RotationEnabled = aws.ToBool(out.RotationEnabled)
	st.LastRotationDate, st.NextRotationDate = timeOf(out.LastRotatedDate), timeOf(out.NextRotationDate)
	st.Replicas = nil
	for _, r := range out.ReplicationStatus {
		st.Replicas = append(st.Replicas, v1alpha1.ReplicaStatus{Region: aws.ToString(r.Region), Status: string(r.Status),
			Message: aws.ToString(r.StatusMessage)})
	}
	st.ValueSource = ""
	switch {
	case s.Spec.SecretStringSecretRef != nil:
		st.ValueSource = sourceSecretRef
	case s.Spec.SecretString != "":
		st.ValueSource = sourceSpec
	}
}

// staged returns the id of the version that carries label, "" when none does.
func staged(out *secretsmanager.DescribeSecretOutput, label string) string {
	for id, labels := range out.VersionIdsToStages {
		for _, l := range labels {
			if l == label {
				return id
			}
		}
	}
	return ""
}

// timeOf returns t as a status time, nil when AWS gave none.
func timeOf(t *time.Time) *metav1.Time {
	if t == nil {
		return nil
	}
	m := metav1.NewTime(*t)
	return &m
}

// sameKey reports whether got, the KMS key DescribeSecret reports, is the key want names;
// "" and the AWS managed key's alias are the same key.
func sameKey(want, got string) bool {
	want, got = defaultKeyAsEmpty(want), defaultKeyAsEmpty(got)
	return want == got || managed.SameKMSKey(want, got) || (want != "" && strings.HasSuffix(got, ":"+want))
}

// defaultKey is the alias of Secrets Manager's AWS managed key.
const defaultKey = "alias/aws/secretsmanager"

// defaultKeyAsEmpty returns "" for the AWS managed key, by alias or alias ARN, and key
// otherwise.
func defaultKeyAsEmpty(key string) string {
	if key == defaultKey || strings.HasSuffix(key, ":"+defaultKey) {
		return ""
	}
	return key
}

// tagMap returns Secrets Manager tags as a map.
func tagMap(tags []types.Tag) map[string]string {
	return managed.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// tagList returns tags as Secrets Manager takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
