package iam

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// versionIDPattern is the pattern of policy version IDs in the IAM API reference.
var versionIDPattern = regexp.MustCompile(`^v[1-9][0-9]*(\.[A-Za-z0-9-]*)?$`)

// versionNumber returns the number of a version ID such as "v12", for ordering.
func versionNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(id, ".", 2)[0], "v"))
	return n
}

// policyVersion returns the version of p a request names, or AWS's error for a malformed version
// ID or one p does not have.
func policyVersion(p *policy, id *string) (*version, error) {
	v := aws.ToString(id)
	if !versionIDPattern.MatchString(v) {
		return nil, validationError(v, "versionId", `Member must satisfy regular expression pattern: v[1-9][0-9]*(\.[A-Za-z0-9-]*)?`)
	}
	ver, ok := p.versions[v]
	if !ok {
		return nil, noSuchEntity("Policy %s version %s does not exist or is not attachable.", p.arn, v)
	}
	return ver, nil
}

// withVersion runs f, holding the backend's lock, on the policy find returns for arn and its
// version id, and returns f's answer or the error for the policy or the version.
func withVersion[O any](b *Backend, call *core.Call, find finder[*policy], arn, id *string, f func(p *policy, v *version) (*O, error)) (*O, error) {
	return withEntity(b, call, find, arn, func(_ *account, p *policy) (*O, error) {
		v, err := policyVersion(p, id)
		if err != nil {
			return nil, err
		}
		return f(p, v)
	})
}

// versionView returns a policy version as the SDK describes it, with its document URL-encoded
// when withDocument is true (GetPolicyVersion; the other operations leave it out).
func versionView(p *policy, v *version, withDocument bool) types.PolicyVersion {
	out := types.PolicyVersion{VersionId: aws.String(v.id), IsDefaultVersion: v.id == p.defaultVersion, CreateDate: aws.Time(v.created)}
	if withDocument {
		out.Document = aws.String(encodeDocument(v.document))
	}
	return out
}

// createPolicyVersion adds a version to a customer managed policy, which may have at most five,
// and makes it the default when SetAsDefault is true. Version IDs count up and are not reused.
func (b *Backend) createPolicyVersion(call *core.Call, in *iam.CreatePolicyVersionInput) (*iam.CreatePolicyVersionOutput, error) {
	return withEntity(b, call, owning("CreatePolicyVersion"), in.PolicyArn, func(a *account, p *policy) (*iam.CreatePolicyVersionOutput, error) {
		doc := aws.ToString(in.PolicyDocument)
		if err := checkManagedDocument(doc); err != nil {
			return nil, err
		}
		if len(p.versions) >= maxPolicyVersions {
			return nil, limitExceeded("A managed policy can have up to %d versions. Before you create a new version, you must delete an existing version.", maxPolicyVersions)
		}
		v := &version{id: "v" + strconv.Itoa(p.nextVersion), document: doc, created: call.Now}
		p.nextVersion++
		p.versions[v.id] = v
		if in.SetAsDefault {
			p.defaultVersion = v.id
			p.updated = call.Now
		}
		return &iam.CreatePolicyVersionOutput{PolicyVersion: ptr(versionView(p, v, false))}, nil
	})
}

// getPolicyVersion returns one version of a customer or AWS managed policy with its document.
func (b *Backend) getPolicyVersion(call *core.Call, in *iam.GetPolicyVersionInput) (*iam.GetPolicyVersionOutput, error) {
	return withVersion(b, call, (*account).findPolicy, in.PolicyArn, in.VersionId, func(p *policy, v *version) (*iam.GetPolicyVersionOutput, error) {
		return &iam.GetPolicyVersionOutput{PolicyVersion: ptr(versionView(p, v, true))}, nil
	})
}

// deletePolicyVersion deletes a version of a customer managed policy other than its default.
func (b *Backend) deletePolicyVersion(call *core.Call, in *iam.DeletePolicyVersionInput) (*iam.DeletePolicyVersionOutput, error) {
	return withVersion(b, call, owning("DeletePolicyVersion"), in.PolicyArn, in.VersionId, func(p *policy, v *version) (*iam.DeletePolicyVersionOutput, error) {
		if v.id == p.defaultVersion {
			return nil, deleteConflict("Cannot delete the default version of a policy.")
		}
		delete(p.versions, v.id)
		return &iam.DeletePolicyVersionOutput{}, nil
	})
}

// listPolicyVersions returns one page of a policy's versions, newest first, without their
// documents.
func (b *Backend) listPolicyVersions(call *core.Call, in *iam.ListPolicyVersionsInput) (*iam.ListPolicyVersionsOutput, error) {
	return withEntity(b, call, (*account).findPolicy, in.PolicyArn, func(a *account, p *policy) (*iam.ListPolicyVersionsOutput, error) {
		ids := core.SortedKeys(p.versions)
		sort.SliceStable(ids, func(i, j int) bool { return versionNumber(ids[i]) > versionNumber(ids[j]) })
		ids, l, err := page(ids, in.Marker, in.MaxItems)
		if err != nil {
			return nil, err
		}
		out := &iam.ListPolicyVersionsOutput{Versions: []types.PolicyVersion{}, IsTruncated: l.truncated, Marker: l.marker}
		for _, id := range ids {
			out.Versions = append(out.Versions, versionView(p, p.versions[id], false))
		}
		return out, nil
	})
}

// setDefaultPolicyVersion makes one of a customer managed policy's versions its default.
func (b *Backend) setDefaultPolicyVersion(call *core.Call, in *iam.SetDefaultPolicyVersionInput) (*iam.SetDefaultPolicyVersionOutput, error) {
	return withVersion(b, call, owning("SetDefaultPolicyVersion"), in.PolicyArn, in.VersionId, func(p *policy, v *version) (*iam.SetDefaultPolicyVersionOutput, error) {
		p.defaultVersion = v.id
		p.updated = call.Now
		return &iam.SetDefaultPolicyVersionOutput{}, nil
	})
}
