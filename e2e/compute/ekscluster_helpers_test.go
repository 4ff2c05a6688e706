package compute_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
)

// eks returns an EKS client of the emulator, with the test credentials.
func (h *harness) eks() *eks.Client {
	return eks.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
}

// zonedSubnets makes, through EC2, the VPC <prefix>.0.0/16 with the subnets <prefix>.1.0/24 in
// us-east-1a and <prefix>.2.0/24 in us-east-1b, as made outside the cluster, and returns the
// subnets' ids.
func (h *harness) zonedSubnets(t testing.TB, prefix string) []string {
	t.Helper()
	ctx := context.Background()
	vpc, err := h.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String(prefix + ".0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, zone := range []string{"us-east-1a", "us-east-1b"} {
		sn, err := h.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String(fmt.Sprintf("%s.%d.0/24", prefix, i+1)),
			AvailabilityZone: aws.String(zone)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, aws.ToString(sn.Subnet.SubnetId))
	}
	return ids
}

// cluster reads cluster name from EKS.
func (h *harness) cluster(t testing.TB, api *eks.Client, name string) *types.Cluster {
	t.Helper()
	out, err := api.DescribeCluster(context.Background(), &eks.DescribeClusterInput{Name: aws.String(name)})
	if err != nil {
		t.Fatalf("describe EKS cluster %s: %v", name, err)
	}
	return out.Cluster
}

// clusters lists the names of the EKS clusters.
func (h *harness) clusters(t testing.TB, api *eks.Client) []string {
	t.Helper()
	out, err := api.ListClusters(context.Background(), &eks.ListClustersInput{})
	if err != nil {
		t.Fatalf("list EKS clusters: %v", err)
	}
	return out.Clusters
}

// nodegroup reads node group name of cluster from EKS.
func (h *harness) nodegroup(t testing.TB, api *eks.Client, cluster, name string) *types.Nodegroup {
	t.Helper()
	out, err := api.DescribeNodegroup(context.Background(), &eks.DescribeNodegroupInput{ClusterName: aws.String(cluster), NodegroupName: aws.String(name)})
	if err != nil {
		t.Fatalf("describe node group %s of EKS cluster %s: %v", name, cluster, err)
	}
	return out.Nodegroup
}

// nodegroups lists the names of the node groups of cluster.
func (h *harness) nodegroups(t testing.TB, api *eks.Client, cluster string) []string {
	t.Helper()
	out, err := api.ListNodegroups(context.Background(), &eks.ListNodegroupsInput{ClusterName: aws.String(cluster)})
	if err != nil {
		t.Fatalf("list the node groups of EKS cluster %s: %v", cluster, err)
	}
	return out.Nodegroups
}

// addon reads add-on name of cluster from EKS.
func (h *harness) addon(t testing.TB, api *eks.Client, cluster, name string) *types.Addon {
	t.Helper()
	out, err := api.DescribeAddon(context.Background(), &eks.DescribeAddonInput{ClusterName: aws.String(cluster), AddonName: aws.String(name)})
	if err != nil {
		t.Fatalf("describe add-on %s of EKS cluster %s: %v", name, cluster, err)
	}
	return out.Addon
}

// enabledLogs returns the log types a cluster has enabled.
func enabledLogs(c *types.Cluster) []string {
	var out []string
	if c.Logging == nil {
		return out
	}
	for _, s := range c.Logging.ClusterLogging {
		if aws.ToBool(s.Enabled) {
			for _, typ := range s.Types {
				out = append(out, string(typ))
			}
		}
	}
	return out
}

// addonNames returns the names of the add-ons in a status, in its order.
func addonNames(list []v1alpha1.EKSAddonStatus) []string {
	out := make([]string, 0, len(list))
	for _, a := range list {
		out = append(out, a.Name)
	}
	return out
}

// isClusterReady reports whether o's Ready condition is True.
func isClusterReady(o *v1alpha1.EKSCluster) bool {
	return meta.IsStatusConditionTrue(o.Status.Conditions, "Ready")
}
