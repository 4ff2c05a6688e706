package iampolicy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// State is what IAM said about a policy, handed from Observe to Delete and ReleaseOwnership.
type State struct {
	// Policy is GetPolicy's answer.
	Policy *types.Policy
	// Document is the default version's document, decoded.
	Document string
}

// Observe reads the policy (GetPolicy, ListPolicyTags and its default version), fills the
// status and plans a new default version when the document says something else, and the tags.
func (d *driver) Observe(ctx context.Context, p *v1alpha1.IAMPolicy, req managed.Request) (managed.Observation[State], error) {
	arn, err := d.arn(ctx, p)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	out, tags, found, err := managed.ReadClaimed(ctx, p, "IAM policy", arn, func(ctx context.Context) (*iam.GetPolicyOutput, error) {
		return d.api.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String(arn)})
	}, func(ctx context.Context) (map[string]string, error) { return d.tags(ctx, arn) })
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	pol := out.Policy
	fillStatus(p, pol)
	st := &State{Policy: pol}
	obs := managed.Observation[State]{Exists: true, Ready: true, State: st, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	version, err := d.api.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: aws.String(arn), VersionId: pol.DefaultVersionId})
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("get version %s of policy %s: %w", aws.ToString(pol.DefaultVersionId), arn, err)
	}
	if st.Document, err = url.QueryUnescape(aws.ToString(version.PolicyVersion.Document)); err != nil {
		return managed.Observation[State]{}, fmt.Errorf("read version %s of policy %s: %w", aws.ToString(pol.DefaultVersionId), arn, err)
	}
	if got := aws.ToString(pol.Description); got != p.Spec.Description {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "policy %s has the description %q, not the spec's %q; IAM sets a managed policy's "+
			"description at creation only: put its description in the spec, or create a new IAMPolicy", arn, got, p.Spec.Description)
	}
	if !policy.Equivalent(st.Document, p.Spec.PolicyDocument) {
		obs.Changes.AddValue("policyDocument", shown(st.Document), shown(p.Spec.PolicyDocument), func(ctx context.Context) error {
			return d.newVersion(ctx, arn, p.Spec.PolicyDocument)
		})
	}
	obs.Changes.AddTags(req.Tags, tags, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagPolicy(ctx, &iam.TagPolicyInput{PolicyArn: aws.String(arn), Tags: tagList(set)})
		return managed.Wrap(err, "tag policy %s", arn)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagPolicy(ctx, &iam.UntagPolicyInput{PolicyArn: aws.String(arn), TagKeys: keys})
		return managed.Wrap(err, "untag policy %s", arn)
	}))
	return obs, nil
}

// shown returns a document as a plan shows it: compact JSON when it is JSON (a policy holds no
// secret), as it is otherwise.
func shown(doc string) any {
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return doc
	}
	return v
}

// tags reads the policy's tags (ListPolicyTags, every page).
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	var list []types.Tag
	pages := iam.NewListPolicyTagsPaginator(d.api, &iam.ListPolicyTagsInput{PolicyArn: aws.String(arn)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list the tags of policy %s: %w", arn, err)
		}
		list = append(list, page.Tags...)
	}
	return tagMap(list), nil
}

// fillStatus copies what IAM said about the policy into the status.
func fillStatus(p *v1alpha1.IAMPolicy, pol *types.Policy) {
	s := &p.Status
	s.ARN, s.PolicyID, s.DefaultVersionID = aws.ToString(pol.Arn), aws.ToString(pol.PolicyId), aws.ToString(pol.DefaultVersionId)
	s.AttachmentCount = aws.ToInt32(pol.AttachmentCount)
}

// tagMap returns IAM tags as a map.
func tagMap(tags []types.Tag) map[string]string {
	return managed.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// tagList returns tags as IAM takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
