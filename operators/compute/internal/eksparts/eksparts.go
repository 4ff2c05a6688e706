// Package eksparts holds what the kinds that manage parts of an EKS cluster share: the EKSCluster
// and EKSAccessEntry/EKSPodIdentityAssociation drivers' tag plans on EKS ARNs, and the check
// that a cluster named by name is the namespace's own before anything is written into it.
package eksparts

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TagAPI is the part of the EKS API that tags its resources.
type TagAPI interface {
	TagResource(ctx context.Context, in *eks.TagResourceInput, opts ...func(*eks.Options)) (*eks.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *eks.UntagResourceInput, opts ...func(*eks.Options)) (*eks.UntagResourceOutput, error)
}

// ClusterAPI is the part of the EKS API that reads a cluster.
type ClusterAPI interface {
	DescribeCluster(ctx context.Context, in *eks.DescribeClusterInput, opts ...func(*eks.Options)) (*eks.DescribeClusterOutput, error)
}

var (
	_ TagAPI     = (*eks.Client)(nil)
	_ ClusterAPI = (*eks.Client)(nil)
)

// PlanTags plans the tag change, named field in events, that makes the EKS resource arn carry
// exactly desired: TagResource for the tags to add or change, then UntagResource for the keys
// to remove. The plan shows the tags that change (see managed.TagValues).
func PlanTags(plan *managed.Plan, api TagAPI, field, arn string, desired, observed map[string]string) {
	set, remove := managed.TagChanges(desired, observed)
	if len(set)+len(remove) == 0 {
		return
	}
	apply := managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := api.TagResource(ctx, &eks.TagResourceInput{ResourceArn: aws.String(arn), Tags: set})
		return managed.Wrap(err, "tag %s", arn)
	}, func(ctx context.Context, remove []string) error {
		return Untag(ctx, api, arn, remove)
	})
	plan.AddFieldValues([]string{field}, map[string]managed.Values{field: managed.TagValues(set, remove, observed)},
		func(ctx context.Context) error { return apply(ctx, set, remove) })
}

// Untag removes the tag keys from the EKS resource arn.
func Untag(ctx context.Context, api TagAPI, arn string, keys []string) error {
	_, err := api.UntagResource(ctx, &eks.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: keys})
	return managed.Wrap(err, "untag %s", arn)
}

// CheckClusterOwned refuses, before anything is written into it, the cluster name that o's spec
// names by name rather than through a clusterRef when no object of o's namespace made it
// (managed.CheckForeignWrite, operator flag --foreign-write-namespaces): what o makes there
// (an access entry, a Pod Identity association) gives IAM principals rights in the cluster. A
// cluster that does not exist is let through: the create then fails with AWS's not-found.
func CheckClusterOwned(ctx context.Context, api ClusterAPI, o shared.Managed, name string) error {
	out, err := api.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String(name)})
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return managed.Wrap(err, "read the tags of EKS cluster %s", name)
	}
	return managed.CheckForeignWrite(ctx, o, "EKS cluster", name, out.Cluster.Tags)
}

// CheckAdopted applies CheckClusterOwned to a resource found in cluster name that o's ownership
// tags (tags) do not name: one o is adopting, by the external-name annotation or as a resource
// of its name without tags, which it would then write to (tag it, change it, delete it).
// Nothing is checked for a cluster named through a clusterRef (byRef), for an object that only
// observes, or for a resource o made. While o is deleted, a resource in a cluster the namespace
// may not write into is left alone (leave), never deleted; a refusal otherwise is terminal.
func CheckAdopted(ctx context.Context, api ClusterAPI, o shared.Managed, name string, byRef bool, tags map[string]string,
	deleting bool) (leave bool, err error) {
	if byRef || shared.ObserveOnly(o) || managed.OwnedBy(o, tags) {
		return false, nil
	}
	err = CheckClusterOwned(ctx, api, o, name)
	if t, ok := managed.AsTerminal(err); ok && deleting && t.Reason == condition.ReasonForeignWriteNotAllowed {
		return true, nil
	}
	return false, err
}
