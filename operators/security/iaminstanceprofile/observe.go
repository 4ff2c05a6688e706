package iaminstanceprofile

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what IAM said about an instance profile, handed from Observe to Delete and
// ReleaseOwnership.
type State struct {
	// Profile is GetInstanceProfile's answer.
	Profile *types.InstanceProfile
}

// Observe reads the instance profile (GetInstanceProfile, which gives its role and tags), fills
// the status and plans the role and tag changes; a profile younger than the propagation time is
// not Ready yet.
func (d *driver) Observe(ctx context.Context, p *v1alpha1.IAMInstanceProfile, req managed.Request) (managed.Observation[State], error) {
	name := p.Spec.InstanceProfileName
	out, err := d.api.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: aws.String(name)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("get instance profile %s: %w", name, err)
	}
	prof := out.InstanceProfile
	tags := tagMap(prof.Tags)
	if err := managed.Claim(p, "IAM instance profile", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(p, prof)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Profile: prof}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	path := p.Spec.Path
	if path == "" {
		path = "/"
	}
	if got := aws.ToString(prof.Path); got != path {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "instance profile %s has the path %s, not the spec's %s; a path cannot change: "+
			"put %s in the spec, or create a new IAMInstanceProfile", name, got, path, got)
	}
	want, got := p.Spec.RoleName, roleNames(prof)
	if held := len(got) == 1 && got[0] == want || len(got) == 0 && want == ""; !held {
		obs.Changes.AddValue("roleName", strings.Join(got, ","), want, func(ctx context.Context) error {
			return d.setRole(ctx, name, got, want)
		})
	}
	obs.Changes.AddTags(req.Tags, tags, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagInstanceProfile(ctx, &iam.TagInstanceProfileInput{InstanceProfileName: aws.String(name), Tags: tagList(set)})
		return managed.Wrap(err, "tag instance profile %s", name)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagInstanceProfile(ctx, &iam.UntagInstanceProfileInput{InstanceProfileName: aws.String(name), TagKeys: keys})
		return managed.Wrap(err, "untag instance profile %s", name)
	}))
	if age := time.Since(aws.ToTime(prof.CreateDate)); age < d.propagation {
		obs.Ready, obs.ReadyIn = false, d.propagation-age
		obs.Message = fmt.Sprintf("instance profile %s was created %s ago: IAM propagates a new instance profile to EC2 within seconds", name, age.Round(time.Second))
	}
	return obs, nil
}

// setRole takes the roles other than want out of the instance profile and puts want in
// (nothing for "").
func (d *driver) setRole(ctx context.Context, name string, held []string, want string) error {
	has := false
	for _, r := range held {
		if r == want {
			has = true
			continue
		}
		_, err := d.api.RemoveRoleFromInstanceProfile(ctx, &iam.RemoveRoleFromInstanceProfileInput{InstanceProfileName: aws.String(name), RoleName: aws.String(r)})
		if err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "remove role %s from instance profile %s", r, name)
		}
	}
	if want == "" || has {
		return nil
	}
	_, err := d.api.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: aws.String(name), RoleName: aws.String(want)})
	return managed.Wrap(err, "add role %s to instance profile %s", want, name)
}

// roleNames returns the names of the roles an instance profile holds.
func roleNames(p *types.InstanceProfile) []string {
	var names []string
	for _, r := range p.Roles {
		names = append(names, aws.ToString(r.RoleName))
	}
	return names
}

// fillStatus copies what IAM said about the instance profile into the status.
func fillStatus(p *v1alpha1.IAMInstanceProfile, prof *types.InstanceProfile) {
	s := &p.Status
	s.InstanceProfileName, s.ARN, s.InstanceProfileID = aws.ToString(prof.InstanceProfileName), aws.ToString(prof.Arn), aws.ToString(prof.InstanceProfileId)
	s.RoleName = ""
	if names := roleNames(prof); len(names) > 0 {
		s.RoleName = names[0]
	}
}

// tagMap returns IAM tags as a map.
func tagMap(tags []types.Tag) map[string]string {
	return managed.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// tagList returns tags as IAM takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
