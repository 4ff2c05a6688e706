// Package ekscluster manages Amazon EKS clusters for the EKSCluster kind: the control plane,
// its managed node groups and its add-ons. A cluster takes minutes to create in AWS and takes
// one change at a time (an update makes it UPDATING until it ends), so the driver plans at
// most one cluster update per observation, waits while the cluster is busy, and upgrades the
// Kubernetes version one minor version at a time, the node groups following the control plane.
// Node groups and add-ons are managed as sets: those the spec lists are created and kept as
// listed, and those this object created and no longer lists are deleted; deletion removes them
// before the cluster.
package ekscluster

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the EKSCluster kind to the engine.
func Kind() managed.Kind[*v1alpha1.EKSCluster, State] {
	return managed.Kind[*v1alpha1.EKSCluster, State]{
		// A cluster is CREATING for about ten minutes in AWS, a node group or an add-on for a
		// few (2s each in the emulator).
		ReadyIn:  2 * time.Second,
		Validate: validate,
		Guard:    guard,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.EKSCluster) managed.Driver[*v1alpha1.EKSCluster, State] {
			return &driver{api: provider.Client(s, "eks", func(c aws.Config) *eks.Client { return eks.NewFromConfig(c) })}
		},
		References: []managed.Ref[*v1alpha1.EKSCluster]{
			managed.List(targets.Subnet, "spec.resourcesVPCConfig.subnetRefs", "spec.resourcesVPCConfig.subnetSelector",
				func(c *v1alpha1.EKSCluster) ([]shared.Reference, *shared.Selector, *[]string) {
					v := &c.Spec.ResourcesVPCConfig
					return v.SubnetRefs, v.SubnetSelector, &v.SubnetIDs
				}),
			managed.List(targets.SecurityGroup, "spec.resourcesVPCConfig.securityGroupRefs", "",
				func(c *v1alpha1.EKSCluster) ([]shared.Reference, *shared.Selector, *[]string) {
					v := &c.Spec.ResourcesVPCConfig
					return v.SecurityGroupRefs, nil, &v.SecurityGroupIDs
				}),
		},
	}
}

// validate checks what admission cannot: a node group names each taint (a key and an effect)
// once, as Kubernetes identifies taints.
func validate(c *v1alpha1.EKSCluster) error {
	for _, g := range c.Spec.NodeGroups {
		seen := map[string]bool{}
		for _, t := range g.Taints {
			key := t.Key + ":" + t.Effect
			if seen[key] {
				return errors.New("node group " + g.Name + " has the taint " + key + " twice; a taint is identified by its key and effect")
			}
			seen[key] = true
		}
	}
	return nil
}

// clusterName returns the name of o's cluster: the recorded one, or the spec's.
func clusterName(o *v1alpha1.EKSCluster) string {
	if name := managed.ExternalName(o); name != "" {
		return name
	}
	return o.Spec.ClusterName
}

// api is the part of the EKS API the driver uses.
type api interface {
	CreateCluster(ctx context.Context, in *eks.CreateClusterInput, opts ...func(*eks.Options)) (*eks.CreateClusterOutput, error)
	DescribeCluster(ctx context.Context, in *eks.DescribeClusterInput, opts ...func(*eks.Options)) (*eks.DescribeClusterOutput, error)
	DeleteCluster(ctx context.Context, in *eks.DeleteClusterInput, opts ...func(*eks.Options)) (*eks.DeleteClusterOutput, error)
	UpdateClusterConfig(ctx context.Context, in *eks.UpdateClusterConfigInput, opts ...func(*eks.Options)) (*eks.UpdateClusterConfigOutput, error)
	UpdateClusterVersion(ctx context.Context, in *eks.UpdateClusterVersionInput, opts ...func(*eks.Options)) (*eks.UpdateClusterVersionOutput, error)
	AssociateEncryptionConfig(ctx context.Context, in *eks.AssociateEncryptionConfigInput, opts ...func(*eks.Options)) (*eks.AssociateEncryptionConfigOutput, error)
	CreateNodegroup(ctx context.Context, in *eks.CreateNodegroupInput, opts ...func(*eks.Options)) (*eks.CreateNodegroupOutput, error)
	DescribeNodegroup(ctx context.Context, in *eks.DescribeNodegroupInput, opts ...func(*eks.Options)) (*eks.DescribeNodegroupOutput, error)
	UpdateNodegroupConfig(ctx context.Context, in *eks.UpdateNodegroupConfigInput, opts ...func(*eks.Options)) (*eks.UpdateNodegroupConfigOutput, error)
	UpdateNodegroupVersion(ctx context.Context, in *eks.UpdateNodegroupVersionInput, opts ...func(*eks.Options)) (*eks.UpdateNodegroupVersionOutput, error)
	DeleteNodegroup(ctx context.Context, in *eks.DeleteNodegroupInput, opts ...func(*eks.Options)) (*eks.DeleteNodegroupOutput, error)
	CreateAddon(ctx context.Context, in *eks.CreateAddonInput, opts ...func(*eks.Options)) (*eks.CreateAddonOutput, error)
	DescribeAddon(ctx context.Context, in *eks.DescribeAddonInput, opts ...func(*eks.Options)) (*eks.DescribeAddonOutput, error)
	UpdateAddon(ctx context.Context, in *eks.UpdateAddonInput, opts ...func(*eks.Options)) (*eks.UpdateAddonOutput, error)
	DeleteAddon(ctx context.Context, in *eks.DeleteAddonInput, opts ...func(*eks.Options)) (*eks.DeleteAddonOutput, error)
	TagResource(ctx context.Context, in *eks.TagResourceInput, opts ...func(*eks.Options)) (*eks.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *eks.UntagResourceInput, opts ...func(*eks.Options)) (*eks.UntagResourceOutput, error)
	eks.ListNodegroupsAPIClient
	eks.ListAddonsAPIClient
}

var _ api = (*eks.Client)(nil)

// driver manages one provider's EKS clusters.
type driver struct {
	// api is the provider's EKS client.
	api api
}
