package data_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	netv1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// subnetGroupOf returns the emulator's DB subnet group name, nil when it does not exist.
func subnetGroupOf(t *testing.T, c *rds.Client, name string) *types.DBSubnetGroup {
	t.Helper()
	out, err := c.DescribeDBSubnetGroups(context.Background(), &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String(name)})
	if err != nil && strings.Contains(err.Error(), "DBSubnetGroupNotFoundFault") {
		return nil
	}
	if err != nil || len(out.DBSubnetGroups) != 1 {
		t.Fatalf("describe DB subnet group %s: %v", name, err)
	}
	return &out.DBSubnetGroups[0]
}

// groupSubnets returns the subnet ids of a DB subnet group, sorted.
func groupSubnets(g *types.DBSubnetGroup) []string {
	var ids []string
	for _, s := range g.Subnets {
		ids = append(ids, aws.ToString(s.SubnetIdentifier))
	}
	slices.Sort(ids)
	return ids
}

// groupTags returns the tags of a DB subnet group.
func groupTags(t *testing.T, c *rds.Client, g *types.DBSubnetGroup) map[string]string {
	t.Helper()
	out, err := c.ListTagsForResource(context.Background(), &rds.ListTagsForResourceInput{ResourceName: g.DBSubnetGroupArn})
	if err != nil {
		t.Fatalf("list the tags of %s: %v", aws.ToString(g.DBSubnetGroupArn), err)
	}
	return tagsOf(out.TagList)
}

// netMeta returns the metadata of a networking object named name in ns.
func netMeta(ns, name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }

// subnet creates a Subnet named zone in ns, in the VPC object net, in the availability zone
// us-east-1<zone>.
func (h *harness) subnet(ns, zone string, n int) {
	h.t.Helper()
	s := &netv1.Subnet{ObjectMeta: netMeta(ns, zone)}
	s.Spec.ProviderRef.Name, s.Spec.VPCRef = "aws", &shared.Reference{Name: "net"}
	s.Spec.CIDRBlock, s.Spec.AvailabilityZone = fmt.Sprintf("10.20.%d.0/24", n), "us-east-1"+zone
	h.create(s)
}

// subnetIDs returns the subnet ids of the Ready Subnet objects names in ns, sorted.
func (h *harness) subnetIDs(ns string, names ...string) []string {
	h.t.Helper()
	var ids []string
	for _, name := range names {
		ids = append(ids, waitReady(h, &netv1.Subnet{ObjectMeta: netMeta(ns, name)}).Status.SubnetID)
	}
	slices.Sort(ids)
	return ids
}

// TestRDSReferences follows an instance whose security group and subnets are networking
// objects: it waits, with a condition that says so, while they are not Ready, and makes
// nothing in AWS meanwhile; it is then created in a DB subnet group the operator makes from the
// subnets, tagged as the instance, with the referenced group beside the one the spec gives by
// id; a subnet reference added and a tag changed are applied to the subnet group; a
// steady-state sync reads the instance and the group only; deleting the instance takes the
// subnet group with it once the instance is gone.
func TestRDSReferences(t *testing.T) {
	h := startWithNetwork(t)
	ns := h.env.Namespace(t)
	h.provider(ns, "aws")
	h.secret(ns, "pw", "password", "references-Secret-1")
	c := rds.NewFromConfig(h.aws)

	// The subnets and the security group wait for their VPC, which does not exist yet.
	h.subnet(ns, "a", 1)
	h.subnet(ns, "b", 2)
	sg := &netv1.SecurityGroup{ObjectMeta: netMeta(ns, "db")}
	sg.Spec.ProviderRef.Name, sg.Spec.VPCRef, sg.Spec.Description = "aws", &shared.Reference{Name: "net"}, "database clients"
	h.create(sg)

	i := rdsInstance(ns, "placed", "placed-db", "pw")
	i.Spec.DeletionPolicy, i.Spec.FinalSnapshot = shared.DeletionPolicyDelete, &v1alpha1.RDSFinalSnapshot{Skip: true}
	i.Spec.SubnetRefs = []shared.Reference{{Name: "a"}, {Name: "b"}}
	i.Spec.SecurityGroupRefs = []shared.Reference{{Name: "db"}}
	i.Spec.VPCSecurityGroupIDs = []string{wellFormedSG}
	h.emu.Calls.Reset()
	began := time.Now()
	h.create(i)
	i = waitCondition(h, i, "Ready", "False", condition.ReasonReferenceNotReady)
	if msg := readyMessage(i); !strings.Contains(msg, "spec.subnetRefs") && !strings.Contains(msg, "spec.securityGroupRefs") {
		t.Errorf("the waiting condition does not name the reference: %q", msg)
	}
	if calls := h.calls("RDS"); calls["CreateDBSubnetGroup"]+calls["CreateDBInstance"] != 0 {
		t.Errorf("AWS calls while the references are not Ready: %v", calls)
	}

	vpc := &netv1.VPC{ObjectMeta: netMeta(ns, "net")}
	vpc.Spec.ProviderRef.Name, vpc.Spec.CIDRBlock = "aws", "10.20.0.0/16"
	h.create(vpc)
	unblocked := time.Now()
	i = waitReady(h, i)
	t.Logf("figures: Ready %s after the VPC was created (%s after the instance, which waited for its references); RDS calls to create %v",
		time.Since(unblocked).Round(10*time.Millisecond), time.Since(began).Round(10*time.Millisecond), h.calls("RDS"))
	sg = waitReady(h, sg)
	subnets := h.subnetIDs(ns, "a", "b")

	d := describeInstance(t, c, "placed-db")
	var groups []string
	for _, g := range d.VpcSecurityGroups {
		groups = append(groups, aws.ToString(g.VpcSecurityGroupId))
	}
	slices.Sort(groups)
	want := []string{sg.Status.GroupID, wellFormedSG}
	slices.Sort(want)
	if !slices.Equal(groups, want) {
		t.Errorf("the instance's security groups: %v, want %v (the referenced one and the one given by id)", groups, want)
	}
	if d.DBSubnetGroup == nil || aws.ToString(d.DBSubnetGroup.DBSubnetGroupName) != "placed-db" || i.Status.DBSubnetGroupName != "placed-db" {
		t.Fatalf("the instance's subnet group: %+v, status %q; want the one made for it, placed-db", d.DBSubnetGroup, i.Status.DBSubnetGroupName)
	}
	g := subnetGroupOf(t, c, "placed-db")
	if got := groupSubnets(g); !slices.Equal(got, subnets) {
		t.Errorf("the subnet group's subnets: %v, want %v", got, subnets)
	}
	if tags := groupTags(t, c, g); tags[shared.TagOwnerUID] != string(i.UID) || tags["team"] != "data" {
		t.Errorf("the subnet group's tags: %v", tags)
	}

	t.Run("a steady-state sync reads the instance and its subnet group", func(t *testing.T) {
		h.emu.Calls.Reset()
		h.resync(i)
		waitFor(h, i, 10*time.Second, "a resync", func(o *v1alpha1.RDSInstance) bool { return h.calls("RDS")["ListTagsForResource"] > 0 && o.Status.Ready })
		time.Sleep(300 * time.Millisecond)
		steady := h.calls("RDS")
		t.Logf("figures: %d RDS calls per steady-state sync (%v)", total(steady), steady)
		if total(steady) != 3 || steady["DescribeDBSubnetGroups"] != 1 || steady["ListTagsForResource"] != 1 {
			t.Errorf("a steady-state sync made %v; want the instance read, DescribeDBSubnetGroups and ListTagsForResource once each", steady)
		}
	})

	t.Run("a subnet added and a tag changed are applied to the subnet group", func(t *testing.T) {
		h.subnet(ns, "c", 3)
		subnets := h.subnetIDs(ns, "a", "b", "c")
		h.emu.Calls.Reset()
		update(h, i, func(o *v1alpha1.RDSInstance) {
			o.Spec.SubnetRefs = append(o.Spec.SubnetRefs, shared.Reference{Name: "c"})
			o.Spec.Tags["team"] = "platform"
		})
		i = waitReady(h, i)
		g := subnetGroupOf(t, c, "placed-db")
		if got := groupSubnets(g); !slices.Equal(got, subnets) {
			t.Errorf("the subnet group's subnets: %v, want %v", got, subnets)
		}
		if tags := groupTags(t, c, g); tags["team"] != "platform" || tags[shared.TagOwnerUID] != string(i.UID) {
			t.Errorf("the subnet group's tags: %v", tags)
		}
		if calls := h.calls("RDS"); calls["ModifyDBSubnetGroup"] != 1 || calls["CreateDBSubnetGroup"] != 0 {
			t.Errorf("calls for one subnet added: %v", calls)
		}
	})

	t.Run("the subnet group goes after the instance", func(t *testing.T) {
		h.delete(i)
		if !instanceGone(c, "placed-db") {
			t.Errorf("the instance is still in AWS")
		}
		if g := subnetGroupOf(t, c, "placed-db"); g != nil {
			t.Errorf("the subnet group made for the instance is left: %+v", g)
		}
		if n := h.calls("RDS")["DeleteDBSubnetGroup"]; n < 1 {
			t.Errorf("DeleteDBSubnetGroup calls: %d", n)
		}
	})
}

// readyMessage returns the message of o's Ready condition.
func readyMessage(o *v1alpha1.RDSInstance) string {
	for _, c := range o.Status.Conditions {
		if c.Type == "Ready" {
			return c.Message
		}
	}
	return ""
}

// TestRDSForeignSubnetGroup gives an instance subnets while a DB subnet group of its name,
// made outside the operator, exists: the instance is refused with a condition that says how to
// use the group, nothing is created, and deleting the object (with an external name recorded,
// so that the deletion looks in AWS) leaves the group as it was.
func TestRDSForeignSubnetGroup(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(ns, "aws")
	h.secret(ns, "pw", "password", "foreign-Secret-1")
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	foreign := []string{"subnet-0123456789abcdef0", "subnet-89abcdef"}
	if _, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String("taken-db"),
		DBSubnetGroupDescription: aws.String("made by hand"), SubnetIds: foreign}); err != nil {
		t.Fatal(err)
	}

	i := rdsInstance(ns, "taken", "taken-db", "pw")
	i.Spec.DeletionPolicy, i.Spec.FinalSnapshot = shared.DeletionPolicyDelete, &v1alpha1.RDSFinalSnapshot{Skip: true}
	i.Spec.SubnetIDs = []string{"subnet-01234567", "subnet-76543210"}
	h.emu.Calls.Reset()
	h.create(i)
	i = waitCondition(h, i, "Synced", "False", condition.ReasonAlreadyExists)
	for _, c := range i.Status.Conditions {
		if c.Type == "Synced" && !strings.Contains(c.Message, "a DB subnet group named taken-db, which this object did not make, already exists; set spec.dbSubnetGroupName to taken-db") {
			t.Errorf("the condition does not say how to use the group: %q", c.Message)
		}
	}
	if calls := h.calls("RDS"); calls["CreateDBInstance"] != 0 || calls["ModifyDBSubnetGroup"]+calls["DeleteDBSubnetGroup"]+calls["AddTagsToResource"] != 0 {
		t.Errorf("calls with the subnet group's name taken: %v", calls)
	}

	// With an external name recorded (an instance adopted by the annotation, here one that is
	// not in AWS), the object's deletion looks in AWS for what it left: the foreign group is
	// not among it.
	update(h, i, func(o *v1alpha1.RDSInstance) {
		o.Annotations = map[string]string{shared.AnnotationExternalName: "taken-db"}
	})
	h.delete(i)
	g := subnetGroupOf(t, c, "taken-db")
	if g == nil {
		t.Fatal("the foreign subnet group was deleted with the object")
	}
	if got := groupSubnets(g); !slices.Equal(got, foreign) || aws.ToString(g.DBSubnetGroupDescription) != "made by hand" {
		t.Errorf("the foreign subnet group changed: %v %q", got, aws.ToString(g.DBSubnetGroupDescription))
	}
	if tags := groupTags(t, c, g); len(tags) != 0 {
		t.Errorf("the foreign subnet group was tagged: %v", tags)
	}
	if n := h.calls("RDS")["DeleteDBSubnetGroup"]; n != 0 {
		t.Errorf("DeleteDBSubnetGroup calls: %d", n)
	}
}
