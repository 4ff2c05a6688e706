package iam

import (
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxPolicyName is the longest name of a managed or inline policy (IAM API reference).
const maxPolicyName = 128

// policy is one managed policy: a customer managed policy of an account, or an AWS managed policy
// of the catalogue, which every account shares and none may change.
type policy struct {
	entity
	description    string
	updated        time.Time
	versions       map[string]*version // by version ID
	defaultVersion string
	nextVersion    int // the number of the next version's ID
	awsManaged     bool
}

// version is one version of a managed policy.
type version struct {
	id, document string
	created      time.Time
}

// policyARN matches the ARN of a managed policy: the account (or "aws" for AWS managed policies)
// and the path and name.
var policyARN = regexp.MustCompile(`^arn:aws:iam::(\d{12}|aws):policy(/[\x21-\x7E]*)$`)

// managed returns the managed policy an ARN names, nil when there is none in the caller's account
// or the catalogue (or it is not visible yet), or the InvalidInput error AWS gives a malformed
// ARN. The caller holds the backend's lock.
func (a *account) managed(call *core.Call, arn string) (*policy, error) {
	m := policyARN.FindStringSubmatch(arn)
	if m == nil {
		return nil, invalidInput("ARN %s is not valid.", arn)
	}
	name := m[2][strings.LastIndex(m[2], "/")+1:]
	if !namePattern.MatchString(name) {
		return nil, invalidInput("ARN %s is not valid.", arn)
	}
	switch m[1] {
	case "aws":
		return catalogue[arn], nil
	case a.id:
		p, ok := a.policies[key(name)]
		if !ok || !strings.EqualFold(p.arn, arn) || !p.visible(call) {
			return nil, nil
		}
		return p, nil
	}
	return nil, nil
}

// findPolicy returns the managed policy an ARN names, or AWS's error when it is malformed or
// names none.
func (a *account) findPolicy(call *core.Call, arn *string) (*policy, error) {
	p, err := a.managed(call, aws.ToString(arn))
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, noSuchEntity("Policy %s was not found.", aws.ToString(arn))
	}
	return p, nil
}

// ownPolicy is findPolicy for the operations that change a policy: an AWS managed policy answers
// AccessDenied, as the caller may not change it.
func (a *account) ownPolicy(call *core.Call, arn *string, action string) (*policy, error) {
	p, err := a.findPolicy(call, arn)
	if err != nil {
		return nil, err
	}
	if p.awsManaged {
		return nil, accessDenied(call, action, "policy "+p.arn)
	}
	return p, nil
}

// owning returns the finder of the customer managed policy an operation (action) changes
// (ownPolicy).
func owning(action string) finder[*policy] {
	return func(a *account, call *core.Call, arn *string) (*policy, error) { return a.ownPolicy(call, arn, action) }
}

// boundaryPolicy returns the managed policy a permissions boundary names, or AWS's error when it
// is malformed or names none.
func (a *account) boundaryPolicy(call *core.Call, arn string) (*policy, error) {
	p, err := a.managed(call, arn)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, noSuchEntity("Scope ARN: %s does not exist or is not attachable.", arn)
	}
	return p, nil
}

// usage returns how many of the account's roles a policy is attached to, and how many it bounds.
// The caller holds the backend's lock.
func (a *account) usage(p *policy) (attachments, boundaries int) {
	for _, r := range a.roles {
		for _, q := range r.attached {
			if q == p {
				attachments++
			}
		}
		if r.boundary == p.arn {
			boundaries++
		}
	}
	return attachments, boundaries
}

// policyView returns a policy as the SDK describes it; listings (ListPolicies) leave out the
// description and tags. The caller holds the backend's lock.
func (a *account) policyView(p *policy, details bool) types.Policy {
	attachments, boundaries := a.usage(p)
	out := types.Policy{
		PolicyName: aws.String(p.name), PolicyId: aws.String(p.id), Arn: aws.String(p.arn), Path: aws.String(p.path),
		DefaultVersionId: aws.String(p.defaultVersion), AttachmentCount: aws.Int32(int32(attachments)),
		PermissionsBoundaryUsageCount: aws.Int32(int32(boundaries)), IsAttachable: true,
		CreateDate: aws.Time(p.created), UpdateDate: aws.Time(p.updated),
	}
	if details {
		if p.description != "" {
			out.Description = aws.String(p.description)
		}
		out.Tags = a.tagList(p.arn)
	}
	return out
}

// checkManagedDocument returns AWS's error for a managed policy version that is malformed or above
// the quota of 6,144 characters.
func checkManagedDocument(doc string) error {
	if err := checkDocument(doc, managedPolicy); err != nil {
		return err
	}
	if policySize(doc) > maxManagedPolicy {
		return quotaExceeded("PolicySize", maxManagedPolicy)
	}
	return nil
}

// createPolicy creates a customer managed policy whose first version, v1, is its default.
func (b *Backend) createPolicy(call *core.Call, in *iam.CreatePolicyInput) (*iam.CreatePolicyOutput, error) {
	name, path, err := checkNameAndPath(in.PolicyName, "policyName", maxPolicyName, in.Path)
	if err != nil {
		return nil, err
	}
	if err := checkDescription(in.Description); err != nil {
		return nil, err
	}
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	doc := aws.ToString(in.PolicyDocument)
	if err := checkManagedDocument(doc); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(a *account) (*iam.CreatePolicyOutput, error) {
		if err := checkNew(a.policies, name, "A policy called %s already exists. Duplicate names are not allowed.", "PoliciesPerAccount", maxPolicies); err != nil {
			return nil, err
		}
		p := &policy{entity: a.newEntity(call, "policy", "ANPA", name, path), description: aws.ToString(in.Description), updated: call.Now,
			versions: map[string]*version{"v1": {id: "v1", document: doc, created: call.Now}}, defaultVersion: "v1", nextVersion: 2}
		if err := add(a, a.policies, p, tags); err != nil {
			return nil, err
		}
		return &iam.CreatePolicyOutput{Policy: ptr(a.policyView(p, true))}, nil
	})
}

// getPolicy describes a customer or AWS managed policy, with its attachment count in the
// caller's account.
func (b *Backend) getPolicy(call *core.Call, in *iam.GetPolicyInput) (*iam.GetPolicyOutput, error) {
	return withEntity(b, call, (*account).findPolicy, in.PolicyArn, func(a *account, p *policy) (*iam.GetPolicyOutput, error) {
		return &iam.GetPolicyOutput{Policy: ptr(a.policyView(p, true))}, nil
	})
}

// deletePolicy deletes a customer managed policy that is attached to no role, bounds none and
// has no version but its default, as AWS requires.
func (b *Backend) deletePolicy(call *core.Call, in *iam.DeletePolicyInput) (*iam.DeletePolicyOutput, error) {
	return withEntity(b, call, owning("DeletePolicy"), in.PolicyArn, func(a *account, p *policy) (*iam.DeletePolicyOutput, error) {
		if attachments, boundaries := a.usage(p); attachments+boundaries > 0 {
			return nil, deleteConflict("Cannot delete a policy attached to entities.")
		}
		if len(p.versions) > 1 {
			return nil, deleteConflict("This policy has more than one version. Before you delete a policy, you must delete the policy's versions. " +
				"The default version is deleted with the policy.")
		}
		delete(a.policies, key(p.name))
		a.tags.Delete(p.arn)
		return &iam.DeletePolicyOutput{}, nil
	})
}

// listPolicies returns one page of the managed policies that Scope (All, AWS or Local),
// OnlyAttached and PathPrefix select, sorted by name, without descriptions and tags.
func (b *Backend) listPolicies(call *core.Call, in *iam.ListPoliciesInput) (*iam.ListPoliciesOutput, error) {
	prefix, err := checkPathPrefix(in.PathPrefix)
	if err != nil {
		return nil, err
	}
	scope := in.Scope
	switch scope {
	case "":
		scope = types.PolicyScopeTypeAll
	case types.PolicyScopeTypeAll, types.PolicyScopeTypeAws, types.PolicyScopeTypeLocal:
	default:
		return nil, validationError(scope, "scope", "Member must satisfy enum value set: [All, AWS, Local]")
	}
	return core.Locked(b.state, call, func(a *account) (*iam.ListPoliciesOutput, error) {
		var candidates []*policy
		if scope != types.PolicyScopeTypeLocal {
			for _, arn := range catalogueARNs {
				candidates = append(candidates, catalogue[arn])
			}
		}
		if scope != types.PolicyScopeTypeAws {
			for _, p := range a.policies {
				if p.visible(call) {
					candidates = append(candidates, p)
				}
			}
		}
		keep := func(p *policy) bool {
			attachments, _ := a.usage(p)
			return strings.HasPrefix(p.path, prefix) && (!in.OnlyAttached || attachments > 0)
		}
		views, l, err := listPage(candidates, keep, in.Marker, in.MaxItems, func(p *policy) types.Policy { return a.policyView(p, false) })
		if err != nil {
			return nil, err
		}
		return &iam.ListPoliciesOutput{Policies: views, IsTruncated: l.truncated, Marker: l.marker}, nil
	})
}
