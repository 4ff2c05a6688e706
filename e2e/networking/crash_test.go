package networking_test

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/crds"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
)

// The crash-and-fault run: how many stacks, how often the operator is killed, the faults, and
// how long each phase may take after its last kill before the test gives up.
const (
	crashStacks = 5
	crashKills  = 4
	// crashCreateDeadline is longer than the reconciler's create grace (1m): a create call cut
	// by a kill may not have reached AWS, and is repeated only once the grace has passed.
	crashCreateDeadline = 80 * time.Second
	crashDeleteDeadline = 45 * time.Second
)

// crashFaults are the EC2 faults in force during the run: 30% of calls throttled, 5% failed
// with HTTP 500, half before AWS does the work and half after (the answer is lost), and every
// resource created invisible to reads for 2 s (AWS's eventual consistency), so that an
// operator killed between a create and the first read that shows it must not create again.
var crashFaults = emulator.Fault{ThrottleRate: 0.3, ErrorRate: 0.025, ErrorAfterRate: 0.025, ReadAfterCreateDelay: emulator.Duration(2 * time.Second)}

// TestCrashAndFaults creates and then deletes a few dozen networking objects (stacks of a VPC,
// two subnets, an internet gateway, a security group and a route table, all by reference, and
// an Elastic IP) while EC2 throttles and fails calls and the operator is killed at random
// moments (its manager stopped mid-reconcile and a fresh one started) during the creates and
// during the deletes. Every object must become Ready, then every object must go; in between
// no object may own more than one AWS resource, and at the end nothing may be left in AWS.
// The run is reproducible from the seed it prints (CRASH_SEED=n repeats it, as far as the
// scheduling of concurrent calls allows); CRASH_LOG=file keeps the operator's log.
func TestCrashAndFaults(t *testing.T) {
	seed := crashSeed(t)
	rng := rand.New(rand.NewPCG(seed, seed))
	emu := emulator.New(emulator.Options{Transitions: testTransitions})
	emu.Faults.Seed(seed)
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{crds.FS()},
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		AWS:         emu,
	})
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", testAccessKey, testSecretKey)
	api := ec2.NewFromConfig(env.AWSConfig(testAccessKey, testSecretKey))
	c := env.Client
	ctx := context.Background()
	setCrashLogger(t)
	op := &crashOperator{t: t, env: env}
	op.start()

	defer logCalls(t, emu)
	objs := crashObjects(ns, crashStacks)
	emu.Faults.Set("EC2", crashFaults)
	began := time.Now()
	for _, i := range rng.Perm(len(objs)) {
		if err := c.Create(ctx, objs[i]); err != nil {
			t.Fatalf("create %s: %v", objs[i].GetName(), err)
		}
	}
	op.killRandomly(rng, crashKills)
	if pending := waitFor(crashCreateDeadline, func() []string { return notReady(t, c, objs) }); len(pending) > 0 {
		emu.Faults.Set("EC2", emulator.Fault{})
		t.Fatalf("seed %d: %d of %d objects not Ready %s after the last kill:\n%s\nin AWS:\n%s", seed, len(pending), len(objs), crashCreateDeadline,
			strings.Join(pending, "\n"), strings.Join(leftResources(t, api, objs), "\n"))
	}
	created := time.Since(began)

	emu.Faults.Set("EC2", emulator.Fault{})
	owned := ownedResources(t, api)
	emu.Faults.Set("EC2", crashFaults)
	var dups []string
	for _, o := range objs {
		if ids := owned[string(o.GetUID())]; len(ids) != 1 {
			dups = append(dups, fmt.Sprintf("  %T %s owns %v", o, o.GetName(), ids))
		}
	}
	if untagged := owned[""]; len(untagged) > 0 {
		dups = append(dups, fmt.Sprintf("  resources without an ownership tag: %v", untagged))
	}

	began = time.Now()
	for _, i := range rng.Perm(len(objs)) {
		if err := c.Delete(ctx, objs[i]); err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("delete %s: %v", objs[i].GetName(), err)
		}
	}
	op.killRandomly(rng, crashKills)
	if left := waitFor(crashDeleteDeadline, func() []string { return notGone(t, c, objs) }); len(left) > 0 {
		emu.Faults.Set("EC2", emulator.Fault{})
		t.Fatalf("seed %d: %d of %d objects not deleted %s after the last kill:\n%s\nin AWS:\n%s", seed, len(left), len(objs), crashDeleteDeadline,
			strings.Join(left, "\n"), strings.Join(leftResources(t, api, objs), "\n"))
	}
	deleted := time.Since(began)

	emu.Faults.Set("EC2", emulator.Fault{})
	leaks := leftResources(t, api, objs)
	t.Logf("seed %d: %d objects, %d kills per phase, faults %+v: Ready in %s, deleted in %s; %d objects with duplicates, %d resources leaked",
		seed, len(objs), crashKills, crashFaults, created.Round(100*time.Millisecond), deleted.Round(100*time.Millisecond), len(dups), len(leaks))
	if len(dups) > 0 {
		t.Errorf("seed %d: objects owning other than one AWS resource once Ready:\n%s", seed, strings.Join(dups, "\n"))
	}
	if len(leaks) > 0 {
		t.Errorf("seed %d: AWS resources left after every object was deleted:\n%s", seed, strings.Join(leaks, "\n"))
	}
}

// crashSeed returns the run's seed, CRASH_SEED when set, and logs it.
func crashSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CRASH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("CRASH_SEED=%q is not a number: %v", s, err)
		}
		seed = n
	}
	t.Logf("seed %d (repeat with CRASH_SEED=%d)", seed, seed)
	return seed
}

// crashLogFile is the file CRASH_LOG names, opened once per process.
var crashLogFile = sync.OnceValues(func() (*os.File, error) {
	return os.OpenFile(os.Getenv("CRASH_LOG"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
})

// setCrashLogger sets the operator's logger: none, or, when CRASH_LOG names a file, a
// development log appended to it, to follow a failing run. controller-runtime keeps the first
// logger a process sets, so run the test alone to get its log.
func setCrashLogger(t *testing.T) {
	t.Helper()
	if os.Getenv("CRASH_LOG") == "" {
		ctrl.SetLogger(ctrl.Log.WithSink(crlog.NullLogSink{}))
		return
	}
	f, err := crashLogFile()
	if err != nil {
		t.Fatalf("CRASH_LOG: %v", err)
	}
	ctrl.SetLogger(zap.New(zap.WriteTo(f), zap.UseDevMode(true)))
}

// crashOperator is the networking family's operator, killed and started again by the test.
type crashOperator struct {
	t    *testing.T
	env  *testenv.Env
	stop func()
}

// start starts a fresh operator (manager, caches, controllers), as a restarted pod would.
func (op *crashOperator) start() {
	op.t.Helper()
	op.stop = families.RunWith(op.t, op.env, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		// A create cut short by a kill is looked up for this long before it is made again;
		// the emulator shows a created resource at once.
		o.CreateGrace = 5 * time.Second
	}, networking.Family())
}

// killRandomly lets the operator run for a random while (up to 2.5s, so that kills land while
// objects are being created or deleted), stops it, and starts a fresh one, kills times.
func (op *crashOperator) killRandomly(rng *rand.Rand, kills int) {
	for range kills {
		time.Sleep(300*time.Millisecond + time.Duration(rng.Int64N(int64(2200*time.Millisecond))))
		op.stop()
		op.start()
	}
}

// crashObjects returns stacks of networking objects in ns: per stack a VPC, two subnets, an
// internet gateway, a security group and a route table (routing to the gateway, associated
// with both subnets) that refer to each other by name, and an Elastic IP.
func crashObjects(ns string, stacks int) []client.Object {
	var out []client.Object
	om := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }
	for i := range stacks {
		name := func(kind string) string { return fmt.Sprintf("s%d-%s", i, kind) }
		vpcRef := &shared.Reference{Name: name("vpc")}
		v := &v1alpha1.VPC{ObjectMeta: om(name("vpc"))}
		v.Spec.ProviderRef.Name, v.Spec.CIDRBlock = "aws", fmt.Sprintf("10.%d.0.0/16", i)
		out = append(out, v)
		var subnets []shared.Reference
		for j, zone := range []string{"us-east-1a", "us-east-1b"} {
			s := &v1alpha1.Subnet{ObjectMeta: om(name(fmt.Sprintf("subnet-%d", j)))}
			s.Spec.ProviderRef.Name, s.Spec.VPCRef, s.Spec.AvailabilityZone = "aws", vpcRef, zone
			s.Spec.CIDRBlock = fmt.Sprintf("10.%d.%d.0/24", i, j)
			out = append(out, s)
			subnets = append(subnets, shared.Reference{Name: s.Name})
		}
		g := &v1alpha1.InternetGateway{ObjectMeta: om(name("igw"))}
		g.Spec.ProviderRef.Name, g.Spec.VPCRef = "aws", vpcRef
		sg := &v1alpha1.SecurityGroup{ObjectMeta: om(name("sg"))}
		sg.Spec.ProviderRef.Name, sg.Spec.VPCRef, sg.Spec.GroupName, sg.Spec.Description = "aws", vpcRef, name("sg"), "crash test"
		rt := &v1alpha1.RouteTable{ObjectMeta: om(name("rt"))}
		rt.Spec.ProviderRef.Name, rt.Spec.VPCRef, rt.Spec.SubnetRefs = "aws", vpcRef, subnets
		rt.Spec.Routes = []v1alpha1.Route{{DestinationCIDRBlock: "0.0.0.0/0", InternetGatewayRef: &shared.Reference{Name: g.Name}}}
		e := &v1alpha1.ElasticIP{ObjectMeta: om(name("eip"))}
		e.Spec.ProviderRef.Name = "aws"
		out = append(out, g, sg, rt, e)
	}
	return out
}

// waitFor polls check every 200ms until it returns nothing or timeout passes, and returns its
// last answer.
func waitFor(timeout time.Duration, check func() []string) []string {
	deadline := time.Now().Add(timeout)
	for {
		left := check()
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// notReady returns the objects that are not Ready, each with its conditions.
func notReady(t *testing.T, c client.Client, objs []client.Object) []string {
	t.Helper()
	var out []string
	for _, o := range objs {
		if err := c.Get(context.Background(), client.ObjectKeyFromObject(o), o); err != nil {
			t.Fatalf("get %s: %v", o.GetName(), err)
		}
		conds := o.(shared.Managed).GetManagedStatus().Conditions
		if !meta.IsStatusConditionTrue(conds, "Ready") {
			out = append(out, describeObject(o, conds))
		}
	}
	return out
}

// notGone returns the objects that still exist, each with its conditions.
func notGone(t *testing.T, c client.Client, objs []client.Object) []string {
	t.Helper()
	var out []string
	for _, o := range objs {
		cur := o.DeepCopyObject().(client.Object)
		err := c.Get(context.Background(), client.ObjectKeyFromObject(o), cur)
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			t.Fatalf("get %s: %v", o.GetName(), err)
		default:
			out = append(out, describeObject(cur, cur.(shared.Managed).GetManagedStatus().Conditions))
		}
	}
	return out
}

// describeObject names o with its AWS id and its Ready and Synced conditions, for failure
// messages.
func describeObject(o client.Object, conds []metav1.Condition) string {
	s := fmt.Sprintf("  %s (%s)", o.GetName(), o.GetAnnotations()[shared.AnnotationExternalName])
	for _, typ := range []string{"Ready", "Synced"} {
		if c := meta.FindStatusCondition(conds, typ); c != nil {
			s += fmt.Sprintf(" %s=%s/%s: %s;", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	return s
}

// crashResource is an EC2 resource the run may leave behind: its id and owner-uid tag.
type crashResource struct{ id, owner string }

// ec2Resources lists, through the SDK, every VPC, subnet, internet gateway, Elastic IP,
// security group and route table in the account, except those EC2 makes by itself (a VPC's
// default security group and main route table, and the default VPC with its default subnets and
// the internet gateway attached to it).
func ec2Resources(t *testing.T, api *ec2.Client) []crashResource {
	t.Helper()
	ctx := context.Background()
	var out []crashResource
	defaults := map[string]bool{} // default VPCs
	add := func(id string, tags []types.Tag) {
		out = append(out, crashResource{id: id, owner: tagMap(tags)[shared.TagOwnerUID]})
	}
	for p := ec2.NewDescribeVpcsPaginator(api, &ec2.DescribeVpcsInput{}); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("describe VPCs: %v", err)
		}
		for _, v := range page.Vpcs {
			if aws.ToBool(v.IsDefault) {
				defaults[aws.ToString(v.VpcId)] = true
			} else {
				add(aws.ToString(v.VpcId), v.Tags)
			}
		}
	}
	for p := ec2.NewDescribeSubnetsPaginator(api, &ec2.DescribeSubnetsInput{}); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("describe subnets: %v", err)
		}
		for _, s := range page.Subnets {
			if !aws.ToBool(s.DefaultForAz) {
				add(aws.ToString(s.SubnetId), s.Tags)
			}
		}
	}
	for p := ec2.NewDescribeInternetGatewaysPaginator(api, &ec2.DescribeInternetGatewaysInput{}); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("describe internet gateways: %v", err)
		}
		for _, g := range page.InternetGateways {
			if !slices.ContainsFunc(g.Attachments, func(a types.InternetGatewayAttachment) bool { return defaults[aws.ToString(a.VpcId)] }) {
				add(aws.ToString(g.InternetGatewayId), g.Tags)
			}
		}
	}
	addrs, err := api.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{})
	if err != nil {
		t.Fatalf("describe Elastic IPs: %v", err)
	}
	for _, a := range addrs.Addresses {
		add(aws.ToString(a.AllocationId), a.Tags)
	}
	for p := ec2.NewDescribeSecurityGroupsPaginator(api, &ec2.DescribeSecurityGroupsInput{}); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("describe security groups: %v", err)
		}
		for _, g := range page.SecurityGroups {
			if aws.ToString(g.GroupName) != "default" {
				add(aws.ToString(g.GroupId), g.Tags)
			}
		}
	}
	for p := ec2.NewDescribeRouteTablesPaginator(api, &ec2.DescribeRouteTablesInput{}); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("describe route tables: %v", err)
		}
		for _, rt := range page.RouteTables {
			if !slices.ContainsFunc(rt.Associations, func(a types.RouteTableAssociation) bool { return aws.ToBool(a.Main) }) {
				add(aws.ToString(rt.RouteTableId), rt.Tags)
			}
		}
	}
	return out
}

// ownedResources returns the ids of the EC2 resources by owner-uid tag ("" for untagged ones).
func ownedResources(t *testing.T, api *ec2.Client) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range ec2Resources(t, api) {
		out[r.owner] = append(out[r.owner], r.id)
	}
	return out
}

// leftResources names every EC2 resource still in the account, with the object of objs its
// ownership tag names.
func leftResources(t *testing.T, api *ec2.Client, objs []client.Object) []string {
	t.Helper()
	names := map[string]string{}
	for _, o := range objs {
		names[string(o.GetUID())] = o.GetName()
	}
	var out []string
	for _, r := range ec2Resources(t, api) {
		out = append(out, fmt.Sprintf("  %s (owner %q %s)", r.id, names[r.owner], r.owner))
	}
	return out
}

// logCalls logs the EC2 calls the emulator answered, by outcome, and the attempts of the
// create calls by outcome.
func logCalls(t *testing.T, emu *emulator.Server) {
	calls := emu.Calls.Snapshot()["EC2"]
	t.Logf("EC2 calls by outcome: %v", outcomes(calls))
	for _, op := range []string{"CreateVpc", "CreateSubnet", "CreateInternetGateway", "AllocateAddress", "CreateSecurityGroup", "CreateRouteTable"} {
		t.Logf("  %s attempts by outcome: %v", op, calls[op])
	}
}

// outcomes sums an emulator's call counts of one service (operation -> outcome -> n) by
// outcome.
func outcomes(calls map[string]map[string]int) map[string]int {
	out := map[string]int{}
	for _, byOutcome := range calls {
		for outcome, n := range byOutcome {
			out[outcome] += n
		}
	}
	return out
}
