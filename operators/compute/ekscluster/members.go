package ekscluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/shared/awserr"
)

// State is what AWS said about a cluster and its parts.
type State struct {
	// Cluster is DescribeCluster's answer, its tags included.
	Cluster *types.Cluster
	// NodeGroups are every node group of the cluster, by name, as DescribeNodegroup answers
	// (tags included); read only when the cluster can have node groups.
	NodeGroups map[string]types.Nodegroup
	// Addons are every add-on of the cluster, by name, as DescribeAddon answers (tags
	// included); read with the node groups.
	Addons map[string]types.Addon
}

// readMembers reads the cluster's node groups and add-ons into s: one ListNodegroups and one
// ListAddons (a page holds 100), then one Describe for each, which is what shows their state,
// settings and tags. One that goes between the listing and its Describe is left out.
func (d *driver) readMembers(ctx context.Context, s *State) error {
	name := aws.ToString(s.Cluster.Name)
	s.NodeGroups, s.Addons = map[string]types.Nodegroup{}, map[string]types.Addon{}
	groups := eks.NewListNodegroupsPaginator(d.api, &eks.ListNodegroupsInput{ClusterName: aws.String(name)})
	for groups.HasMorePages() {
		page, err := groups.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list the node groups of EKS cluster %s: %w", name, err)
		}
		for _, g := range page.Nodegroups {
			out, err := d.api.DescribeNodegroup(ctx, &eks.DescribeNodegroupInput{ClusterName: aws.String(name), NodegroupName: aws.String(g)})
			if awserr.IsNotFound(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("describe node group %s of EKS cluster %s: %w", g, name, err)
			}
			s.NodeGroups[g] = *out.Nodegroup
		}
	}
	addons := eks.NewListAddonsPaginator(d.api, &eks.ListAddonsInput{ClusterName: aws.String(name)})
	for addons.HasMorePages() {
		page, err := addons.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list the add-ons of EKS cluster %s: %w", name, err)
		}
		for _, a := range page.Addons {
			out, err := d.api.DescribeAddon(ctx, &eks.DescribeAddonInput{ClusterName: aws.String(name), AddonName: aws.String(a)})
			if awserr.IsNotFound(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("describe add-on %s of EKS cluster %s: %w", a, name, err)
			}
			s.Addons[a] = *out.Addon
		}
	}
	return nil
}
