package iampolicy

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// maxVersions is how many versions IAM keeps of a managed policy.
const maxVersions = 5

// newVersion makes doc the policy's default version (CreatePolicyVersion with SetAsDefault),
// first deleting the oldest non-default version when the policy has five.
func (d *driver) newVersion(ctx context.Context, arn, doc string) error {
	versions, err := d.versions(ctx, arn)
	if err != nil {
		return err
	}
	if len(versions) >= maxVersions {
		if old := oldestNonDefault(versions); old != "" {
			if _, err := d.api.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: aws.String(arn), VersionId: aws.String(old)}); err != nil {
				return managed.Wrap(err, "delete version %s of policy %s", old, arn)
			}
		}
	}
	_, err = d.api.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: aws.String(arn), PolicyDocument: aws.String(doc), SetAsDefault: true})
	return managed.Wrap(err, "create a new default version of policy %s", arn)
}

// versions lists the policy's versions (ListPolicyVersions, every page).
func (d *driver) versions(ctx context.Context, arn string) ([]types.PolicyVersion, error) {
	var all []types.PolicyVersion
	pages := iam.NewListPolicyVersionsPaginator(d.api, &iam.ListPolicyVersionsInput{PolicyArn: aws.String(arn)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list the versions of policy %s: %w", arn, err)
		}
		all = append(all, page.Versions...)
	}
	return all, nil
}

// oldestNonDefault returns the id of the oldest version that is not the default, by creation
// date and then by number, "" when there is none.
func oldestNonDefault(versions []types.PolicyVersion) string {
	list := slices.DeleteFunc(slices.Clone(versions), func(v types.PolicyVersion) bool { return v.IsDefaultVersion })
	if len(list) == 0 {
		return ""
	}
	return aws.ToString(slices.MinFunc(list, func(a, b types.PolicyVersion) int {
		if c := aws.ToTime(a.CreateDate).Compare(aws.ToTime(b.CreateDate)); c != 0 {
			return c
		}
		return number(aws.ToString(a.VersionId)) - number(aws.ToString(b.VersionId))
	}).VersionId)
}

// number returns the number of a version id such as "v12".
func number(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(id, ".", 2)[0], "v"))
	return n
}
