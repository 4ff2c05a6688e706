package compute_test

import (
	"context"
	"encoding/base64"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestEC2InstanceSeedExample applies the seed's web server verbatim; its placeholder subnet and
// security group ids are accepted at admission, and once real ids are put there the instance
// runs as the seed describes it: its type, volume, user data, profile, detailed monitoring,
// IMDSv2 required and its tags, with the ownership tags. It is launched
// once, a steady-state sync reads little, and deleting it terminates the instance.
func TestEC2InstanceSeedExample(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	subnet, group := h.network(t, "10.0.0.0/16", "10.0.1.0/24")
	objs := h.apply(t, "ec2instance-web-server.yaml", "default")
	h.patchSpec(t, objs[0], `{"subnetID":"`+subnet+`","securityGroupIDs":["`+group+`"]}`)
	o := kubetest.WaitReady(t, h.c, &v1alpha1.EC2Instance{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-server"}})
	created := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")

	s := o.Status
	if s.State != "running" || s.InstanceName != "production-web-01" || s.InstanceType != "t3.medium" || s.SubnetID != subnet ||
		!strings.HasPrefix(s.InstanceARN, "arn:aws:ec2:us-east-1:") || !strings.HasSuffix(s.InstanceARN, ":instance/"+s.InstanceID) {
		t.Errorf("status: %+v", s)
	}
	if _, err := netip.ParseAddr(s.PrivateIP); err != nil || !strings.HasPrefix(s.PrivateIP, "10.0.1.") {
		t.Errorf("private IP %q is not in the subnet", s.PrivateIP)
	}
	i := h.instance(t, s.InstanceID)
	if tags := tagMap(i.Tags); tags["Name"] != "production-web-01" || tags["Role"] != "web-server" || tags[shared.TagOwnerUID] != string(o.UID) {
		t.Errorf("instance tags: %v", tags)
	}
	if i.Monitoring.State != types.MonitoringStateEnabled || i.MetadataOptions.HttpTokens != types.HttpTokensStateRequired ||
		i.IamInstanceProfile == nil || !strings.HasSuffix(aws.ToString(i.IamInstanceProfile.Arn), "/ec2-web-server-role") {
		t.Errorf("instance: monitoring %v, IMDS tokens %v, profile %+v", i.Monitoring.State, i.MetadataOptions.HttpTokens, i.IamInstanceProfile)
	}
	ud := h.attribute(t, s.InstanceID, types.InstanceAttributeNameUserData).UserData
	if raw, _ := base64.StdEncoding.DecodeString(aws.ToString(ud.Value)); !strings.Contains(string(raw), "Hello from EC2") {
		t.Errorf("user data: %q", raw)
	}
	if bdm := i.BlockDeviceMappings; len(bdm) != 1 || aws.ToString(bdm[0].DeviceName) != "/dev/xvda" || !aws.ToBool(bdm[0].Ebs.DeleteOnTermination) {
		t.Errorf("block devices: %+v", bdm)
	}

	// A steady-state sync: the instance (from the provider's listing, or read directly), its
	// user data, and nothing else.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, o, "a sync", func() bool { return kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")) > 0 })
	time.Sleep(500 * time.Millisecond)
	sync := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")
	if n := created["RunInstances"]; n != 1 {
		t.Errorf("RunInstances called %d times, want 1", n)
	}
	if n := kubetest.Total(sync); n > 2 {
		t.Errorf("a steady-state sync took %d calls %v, want at most 2", n, sync)
	}

	kubetest.Delete(t, h.c, o)
	if st := h.instance(t, s.InstanceID).State.Name; st != types.InstanceStateNameTerminated && st != types.InstanceStateNameShuttingDown {
		t.Errorf("the instance is %s after its object went", st)
	}
}

// newInstance returns an EC2Instance in ns with the provider "aws", in subnet, changed by
// mutate.
func newInstance(ns, name, subnet string, mutate func(*v1alpha1.EC2Instance)) *v1alpha1.EC2Instance {
	o := &v1alpha1.EC2Instance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	o.Spec.ProviderRef.Name = "aws"
	o.Spec.InstanceType, o.Spec.ImageID, o.Spec.SubnetID = "t3.micro", "ami-0123456789abcdef0", subnet
	if mutate != nil {
		mutate(o)
	}
	return o
}

// TestEC2InstanceReferences applies the web server placed by references, with the security
// family's examples of its role and instance profile: the instance waits for its subnet,
// security group and instance profile, then runs in them with a public address and the profile.
func TestEC2InstanceReferences(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	h.apply(t, "ec2instance-with-references.yaml", ns)
	for _, file := range []string{"iamrole-ec2.yaml", "iaminstanceprofile.yaml"} {
		// The security examples name namespace default; these go into the test's.
		for _, o := range kubetest.SeedObjects(t, filepath.Join("..", "..", "examples", "security", file)) {
			o.SetNamespace(ns)
			kubetest.Create(t, h.c, o)
		}
	}
	o := kubetest.WaitReady(t, h.c, &v1alpha1.EC2Instance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-server-refs"}})
	i := h.instance(t, o.Status.InstanceID)
	if i.IamInstanceProfile == nil || !strings.HasSuffix(aws.ToString(i.IamInstanceProfile.Arn), ":instance-profile/production-web-server-profile") {
		t.Errorf("the instance runs with profile %+v, want production-web-server-profile", i.IamInstanceProfile)
	}
	if !strings.HasPrefix(o.Status.PrivateIP, "10.20.1.") || o.Status.PublicIP == "" || len(i.SecurityGroups) != 1 ||
		aws.ToString(i.SecurityGroups[0].GroupName) != "web-http" {
		t.Errorf("the instance is at %s/%s with groups %+v", o.Status.PrivateIP, o.Status.PublicIP, i.SecurityGroups)
	}
	if len(i.BlockDeviceMappings) != 1 {
		t.Errorf("block devices: %+v", i.BlockDeviceMappings)
	}
}

// TestEC2InstanceUpdates changes what EC2 changes on a running instance (security groups,
// monitoring, metadata options, termination protection, tags), reverts the same made outside
// the operator, stops and starts the instance through spec.state, and changes its type: refused
// with RestartRequired while it runs, made while it is stopped, and made with a stop and a
// start when spec.allowRestart says so; user data likewise.
func TestEC2InstanceUpdates(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	subnet, group := h.network(t, "10.1.0.0/16", "10.1.1.0/24")
	other, err := h.ec2.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{VpcId: h.instanceVPC(t, subnet), GroupName: aws.String("admin"),
		Description: aws.String("admin access")})
	if err != nil {
		t.Fatal(err)
	}
	o := newInstance(ns, "app", subnet, func(o *v1alpha1.EC2Instance) { o.Spec.SecurityGroupIDs = []string{group} })
	kubetest.Create(t, h.c, o)
	o = kubetest.WaitReady(t, h.c, o)
	id := o.Status.InstanceID

	h.patchSpec(t, o, `{"securityGroupIDs":["`+group+`","`+aws.ToString(other.GroupId)+`"],"monitoring":true,`+
		`"metadataOptions":{"httpPutResponseHopLimit":3},"disableApiTermination":true,"tags":{"team":"web"}}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "the changes applied", func(x *v1alpha1.EC2Instance) bool {
		i := h.instance(t, id)
		return len(i.SecurityGroups) == 2 && i.Monitoring.State == types.MonitoringStateEnabled && aws.ToInt32(i.MetadataOptions.HttpPutResponseHopLimit) == 3 &&
			tagMap(i.Tags)["team"] == "web" && aws.ToBool(h.attribute(t, id, types.InstanceAttributeNameDisableApiTermination).DisableApiTermination.Value)
	})

	// Drift: IMDSv1 allowed, monitoring off and a tag removed outside the operator are reverted.
	if _, err := h.ec2.ModifyInstanceMetadataOptions(ctx, &ec2.ModifyInstanceMetadataOptionsInput{InstanceId: aws.String(id), HttpTokens: types.HttpTokensStateOptional}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ec2.UnmonitorInstances(ctx, &ec2.UnmonitorInstancesInput{InstanceIds: []string{id}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ec2.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{id}, Tags: []types.Tag{{Key: aws.String("team")}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, o, "the drift reverted", func() bool {
		i := h.instance(t, id)
		return i.MetadataOptions.HttpTokens == types.HttpTokensStateRequired && i.Monitoring.State == types.MonitoringStateEnabled && tagMap(i.Tags)["team"] == "web"
	})
	kubetest.WaitEvent(t, h.c, o, condition.ReasonDriftDetected, "metadataOptions")

	// A type change needs a stop: refused while running, with the ways out.
	h.patchSpec(t, o, `{"instanceType":"t3.large"}`)
	got := kubetest.WaitCondition(t, h.c, o, "Synced", "False", condition.ReasonRestartRequired)
	if msg := findCondition(got.Status.Conditions, "Synced").Message; !strings.Contains(msg, "allowRestart") || !strings.Contains(msg, "instanceType") {
		t.Errorf("RestartRequired says %q", msg)
	}
	if tp := h.instance(t, id).InstanceType; tp != types.InstanceTypeT3Micro {
		t.Errorf("the running instance's type changed to %s without a restart allowed", tp)
	}
	// Stopped through the spec: the type is changed while it is stopped.
	h.patchSpec(t, o, `{"state":"stopped"}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "stopped with the new type", func(x *v1alpha1.EC2Instance) bool {
		return x.Status.State == "stopped" && x.Status.InstanceType == "t3.large" && isReady(&x.Status.ManagedStatus)
	})
	// Running again, then a type and user data change with a restart allowed.
	h.patchSpec(t, o, `{"state":"running"}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "running", func(x *v1alpha1.EC2Instance) bool {
		return x.Status.State == "running" && isReady(&x.Status.ManagedStatus)
	})
	h.patchSpec(t, o, `{"instanceType":"t3.xlarge","userData":"#!/bin/sh\necho v2\n","allowRestart":true}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "restarted with the changes", func(x *v1alpha1.EC2Instance) bool {
		return x.Status.State == "running" && x.Status.InstanceType == "t3.xlarge" && isReady(&x.Status.ManagedStatus) && x.Status.ObservedGeneration == x.Generation
	})
	ud := h.attribute(t, id, types.InstanceAttributeNameUserData).UserData
	if raw, _ := base64.StdEncoding.DecodeString(aws.ToString(ud.Value)); string(raw) != "#!/bin/sh\necho v2\n" {
		t.Errorf("user data after the restart: %q", raw)
	}
	if x := h.instance(t, id); aws.ToString(x.InstanceId) != id {
		t.Errorf("the instance was replaced")
	}

	// Termination protection keeps the instance until the spec turns it off.
	if err := h.c.Delete(ctx, o); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitCondition(t, h.c, o, "Synced", "False", condition.ReasonDeletionProtected)
	if st := h.instance(t, id).State.Name; st != types.InstanceStateNameRunning {
		t.Errorf("a protected instance is %s", st)
	}
	h.patchSpec(t, o, `{"disableApiTermination":false}`)
	kubetest.WaitGone(t, h.c, o)
	if st := h.instance(t, id).State.Name; st != types.InstanceStateNameTerminated && st != types.InstanceStateNameShuttingDown {
		t.Errorf("the instance is %s after its object went", st)
	}
}

// instanceVPC returns the VPC of subnet.
func (h *harness) instanceVPC(t testing.TB, subnet string) *string {
	t.Helper()
	out, err := h.ec2.DescribeSubnets(context.Background(), &ec2.DescribeSubnetsInput{SubnetIds: []string{subnet}})
	if err != nil || len(out.Subnets) == 0 {
		t.Fatalf("describe subnet %s: %v", subnet, err)
	}
	return out.Subnets[0].VpcId
}

// isReady reports whether the Ready condition of a managed status is True.
func isReady(s *shared.ManagedStatus) bool {
	c := findCondition(s.Conditions, "Ready")
	return c != nil && c.Status == metav1.ConditionTrue
}

// findCondition returns the condition of type typ, or nil.
func findCondition(conds []metav1.Condition, typ string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == typ {
			return &conds[i]
		}
	}
	return nil
}

// TestEC2InstanceDeletionPolicies keeps the instance with Retain (tags left) and Orphan
// (ownership tags removed), and terminates it with Delete.
func TestEC2InstanceDeletionPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.2.0.0/16", "10.2.1.0/24")
	for _, policy := range []shared.DeletionPolicy{shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan} {
		o := newInstance(ns, strings.ToLower(string(policy)), subnet, func(o *v1alpha1.EC2Instance) { o.Spec.DeletionPolicy = policy })
		kubetest.Create(t, h.c, o)
		o = kubetest.WaitReady(t, h.c, o)
		kubetest.Delete(t, h.c, o)
		i := h.instance(t, o.Status.InstanceID)
		_, owned := tagMap(i.Tags)[shared.TagOwnerUID]
		if i.State.Name != types.InstanceStateNameRunning || owned != (policy == shared.DeletionPolicyRetain) {
			t.Errorf("%s: the instance is %s with tags %v", policy, i.State.Name, tagMap(i.Tags))
		}
	}
}

// TestEC2InstanceBadInput refuses at admission what the schema can tell is wrong, and changes
// of what is set at launch once the instance exists; an instance type EC2 does not know is
// refused by AWS with a terminal condition, after one call.
func TestEC2InstanceBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.3.0.0/16", "10.3.1.0/24")
	for _, tc := range []struct {
		mutate func(*v1alpha1.EC2Instance)
		text   string
	}{
		{func(o *v1alpha1.EC2Instance) { o.Spec.InstanceType = "large" }, "spec.instanceType"},
		{func(o *v1alpha1.EC2Instance) { o.Spec.ImageID = "ubuntu" }, "spec.imageID"},
		{func(o *v1alpha1.EC2Instance) { o.Spec.SubnetRef = &shared.Reference{Name: "public"} }, "set at most one of subnetID and subnetRef"},
		{func(o *v1alpha1.EC2Instance) {
			o.Spec.InstanceName, o.Spec.Tags = "web", map[string]string{"Name": "db"}
		}, "tags.Name differs from instanceName"},
		{func(o *v1alpha1.EC2Instance) { o.Spec.State = "hibernated" }, "spec.state"},
		{func(o *v1alpha1.EC2Instance) {
			o.Spec.EBSVolumes = []v1alpha1.EBSVolume{{DeviceName: "/dev/xvda", VolumeType: "gp2", Throughput: 500}}
		}, "throughput applies to the volume type gp3"},
		{func(o *v1alpha1.EC2Instance) {
			o.Spec.MetadataOptions = &v1alpha1.MetadataOptions{HTTPPutResponseHopLimit: 65}
		}, "httpPutResponseHopLimit"},
	} {
		kubetest.MustRefuse(t, h.c, newInstance(ns, "bad", subnet, tc.mutate), tc.text)
	}

	o := newInstance(ns, "unknown-type", subnet, func(o *v1alpha1.EC2Instance) { o.Spec.InstanceType = "t9.enormous" })
	kubetest.Create(t, h.c, o)
	kubetest.WaitCondition(t, h.c, o, "Synced", "False", condition.ReasonAWSRejected)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["RunInstances"]; n != 1 {
		t.Errorf("RunInstances called %d times for a refused instance type, want 1", n)
	}

	good := newInstance(ns, "good", subnet, nil)
	kubetest.Create(t, h.c, good)
	good = kubetest.WaitReady(t, h.c, good)
	for _, patch := range []struct{ spec, text string }{
		{`{"imageID":"ami-0fedcba9876543210"}`, "imageID cannot change"},
		{`{"keyName":"other"}`, "keyName cannot change"},
		{`{"ebsVolumes":[{"deviceName":"/dev/xvda","volumeSize":50}]}`, "ebsVolumes are set at launch"},
	} {
		err := h.c.Patch(context.Background(), good, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+patch.spec+`}`)))
		if err == nil || !strings.Contains(err.Error(), patch.text) {
			t.Errorf("patch %s: %v, want a refusal saying %q", patch.spec, err, patch.text)
		}
	}
}

// TestEC2InstanceCrashSafety loses every RunInstances answer after EC2 launched the instance
// (as when the operator crashes between the launch and recording the id): the instance is
// found by its ownership tag and recorded, and any retry carries the same client token, so
// exactly one instance exists. An instance
// terminated outside the operator is replaced by a new one.
func TestEC2InstanceCrashSafety(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	subnet, _ := h.network(t, "10.4.0.0/16", "10.4.1.0/24")
	h.emu.Faults.Set("EC2.RunInstances", emulator.Fault{ErrorAfterRate: 1})
	o := newInstance(ns, "crash", subnet, nil)
	kubetest.Create(t, h.c, o)
	o = kubetest.WaitReady(t, h.c, o)
	h.emu.Faults.Set("EC2.RunInstances", emulator.Fault{})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["RunInstances"]; n < 1 {
		t.Fatalf("RunInstances called %d times", n)
	}
	owned, err := h.ec2.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{
		{Name: aws.String("tag:" + shared.TagOwnerUID), Values: []string{string(o.UID)}}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(owned.Reservations); n != 1 || aws.ToString(owned.Reservations[0].Instances[0].InstanceId) != o.Status.InstanceID {
		t.Fatalf("%d reservations carry the object's ownership tag after lost answers, want exactly the recorded instance %s", n, o.Status.InstanceID)
	}

	first := o.Status.InstanceID
	if _, err := h.ec2.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{first}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, o, "a replacement", func() bool {
		got := &v1alpha1.EC2Instance{}
		_ = h.c.Get(ctx, client.ObjectKeyFromObject(o), got)
		return got.Status.InstanceID != first && got.Status.State == "running"
	})
}
