package caching_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	netv1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// networkObjects creates, in ns, a VPC, a Subnet in each of us-east-1a and us-east-1b named a
// and b, and a SecurityGroup named cache, all of the networking family.
func (h *harness) networkObjects(t testing.TB, ns, cidrPrefix string) {
	t.Helper()
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }
	vpc := &netv1.VPC{ObjectMeta: meta("net")}
	vpc.Spec.ProviderRef.Name, vpc.Spec.CIDRBlock = "aws", cidrPrefix+".0.0/16"
	kubetest.Create(t, h.c, vpc)
	for i, zone := range []string{"a", "b"} {
		s := &netv1.Subnet{ObjectMeta: meta(zone)}
		s.Spec.ProviderRef.Name, s.Spec.VPCRef = "aws", &shared.Reference{Name: "net"}
		s.Spec.CIDRBlock, s.Spec.AvailabilityZone = fmt.Sprintf("%s.%d.0/24", cidrPrefix, i+1), "us-east-1"+zone
		kubetest.Create(t, h.c, s)
	}
	g := &netv1.SecurityGroup{ObjectMeta: meta("cache")}
	g.Spec.ProviderRef.Name, g.Spec.VPCRef = "aws", &shared.Reference{Name: "net"}
	g.Spec.GroupName, g.Spec.Description = ns+"-cache", "cache clients"
	kubetest.Create(t, h.c, g)
}

// TestElastiCacheClusterReferences follows a Redis cluster of two nodes, which AWS offers as a
// replication group with automatic failover, whose subnets and security group are networking
// objects: it waits for them, is created in a subnet group the operator makes from the two
// subnets and with the security group, keeps the subnet group's tags in line with the spec's,
// reports its primary, reader and node endpoints, and on
// deletion (deletionPolicy Delete) takes its final snapshot, goes, and takes its subnet group
// with it.
func TestElastiCacheClusterReferences(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	c := newCluster(ns, "replicated", func(c *v1alpha1.ElastiCacheCluster) {
		c.Spec.SubnetGroupName, c.Spec.NumCacheNodes, c.Spec.FinalSnapshotIdentifier = "", 2, "replicated-final"
		c.Spec.SubnetRefs = []shared.Reference{{Name: "a"}, {Name: "b"}}
		c.Spec.SecurityGroupRefs = []shared.Reference{{Name: "cache"}}
		c.Spec.DeletionPolicy = shared.DeletionPolicyDelete
	})
	kubetest.Create(t, h.c, c)
	kubetest.WaitCondition(t, h.c, c, "Ready", "False", condition.ReasonReferenceNotFound)
	h.networkObjects(t, ns, "10.11")

	c = kubetest.WaitReady(t, h.c, c)
	sg := kubetest.WaitReady(t, h.c, &netv1.SecurityGroup{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cache"}})
	id := c.Spec.ClusterID
	if s := c.Status; s.Mode != v1alpha1.ModeReplicationGroup || len(s.NodeEndpoints) != 2 || s.ReaderEndpoint == "" || s.SubnetGroupName != id {
		t.Errorf("status: %+v", s)
	}
	member := h.cacheCluster(t, id+"-001")
	if len(member.SecurityGroups) != 1 || aws.ToString(member.SecurityGroups[0].SecurityGroupId) != sg.Status.GroupID {
		t.Errorf("security groups: %+v", member.SecurityGroups)
	}
	groups, err := h.ec.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String(id)})
	if err != nil || len(groups.CacheSubnetGroups[0].Subnets) != 2 {
		t.Fatalf("the subnet group made for the cluster: %v %+v", err, groups)
	}
	groupARN := aws.ToString(groups.CacheSubnetGroups[0].ARN)
	if tags := h.tags(t, groupARN); tags[shared.TagOwnerUID] != string(c.UID) {
		t.Errorf("the subnet group's tags: %v", tags)
	}

	// The subnet group's tags follow the spec's, and a tag added behind the operator's back goes.
	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.Tags = map[string]string{"Team": "cache"} })
	testenv.Eventually(t, 30*time.Second, func() string {
		if tags := h.tags(t, groupARN); tags["Team"] != "cache" || tags[shared.TagOwnerUID] != string(c.UID) {
			return fmt.Sprintf("subnet group tags %v", tags)
		}
		return ""
	})
	if _, err := h.ec.AddTagsToResource(ctx, &elasticache.AddTagsToResourceInput{ResourceName: aws.String(groupARN),
		Tags: []types.Tag{{Key: aws.String("Stray"), Value: aws.String("x")}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, c, "the stray subnet group tag removed", func() bool {
		_, stray := h.tags(t, groupARN)["Stray"]
		return !stray
	})

	kubetest.Delete(t, h.c, c)
	if _, err := h.ec.DescribeReplicationGroups(ctx, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String(id)}); !strings.Contains(errString(err), "ReplicationGroupNotFound") {
		t.Errorf("the deleted replication group: %v", err)
	}
	if _, err := h.ec.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String(id)}); !strings.Contains(errString(err), "CacheSubnetGroupNotFound") {
		t.Errorf("the subnet group after its cluster went: %v", err)
	}
	snaps, err := h.ec.DescribeSnapshots(ctx, &elasticache.DescribeSnapshotsInput{SnapshotName: aws.String("replicated-final")})
	if err != nil || len(snaps.Snapshots) != 1 {
		t.Errorf("the final snapshot: %v %+v", err, snaps)
	}
}
