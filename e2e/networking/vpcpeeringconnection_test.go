package networking_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/acmcertificate"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// The peer account of the cross-account tests: the emulator maps this access key to it.
const (
	peerAccessKey = "AKIDPEERACCOUNT"
	peerSecretKey = "peer-account-secret"
	peerAccount   = "222222222222"
)

// TestVPCPeeringConnection applies examples/networking/vpcpeering.yaml (two VPCs of one
// account, the connection between them by reference, a route table on each side through it)
// and checks in EC2 that the operator accepted the connection itself, set both sides' DNS
// options and tags, and that each side's route goes through the active connection; that a
// steady sync writes nothing; that a DNS option changed outside the operator is reverted; what
// admission refuses; and deletion.
func TestVPCPeeringConnection(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	ctx := context.Background()

	h.emu.Calls.Reset()
	began := time.Now()
	h.apply(t, "vpcpeering.yaml", ns)
	pcx := kubetest.WaitReady(t, h.c, &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-to-billing"}})
	ready := time.Since(began)
	orders := kubetest.WaitReady(t, h.c, &v1alpha1.RouteTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-routes"}})
	billing := kubetest.WaitReady(t, h.c, &v1alpha1.RouteTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "billing-routes"}})
	calls := peeringCalls(kubetest.Calls(h.emu.Calls.Snapshot(), "EC2"))
	t.Logf("figures: connection Ready %s after apply; peering calls to create %v", ready.Round(time.Millisecond), calls)
	if calls["CreateVpcPeeringConnection"] != 1 || calls["AcceptVpcPeeringConnection"] != 1 {
		t.Errorf("one request and one acceptance, got %v", calls)
	}
	id := pcx.Status.VPCPeeringConnectionID
	c := h.peering(t, h.ec2, id)
	if code(c) != types.VpcPeeringConnectionStateReasonCodeActive || !aws.ToBool(c.RequesterVpcInfo.PeeringOptions.AllowDnsResolutionFromRemoteVpc) ||
		!aws.ToBool(c.AccepterVpcInfo.PeeringOptions.AllowDnsResolutionFromRemoteVpc) {
		t.Errorf("an active connection with both DNS options on: %+v", c)
	}
	if tags := tagMap(c.Tags); tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(pcx.UID) {
		t.Errorf("connection tags %v", tags)
	}
	if pcx.Status.Status != "active" || pcx.Status.RequesterCIDRBlock != "10.40.0.0/16" || pcx.Status.AccepterCIDRBlock != "10.41.0.0/16" {
		t.Errorf("status %+v", pcx.Status)
	}
	for table, dest := range map[string]string{orders.Status.RouteTableID: "10.41.0.0/16", billing.Status.RouteTableID: "10.40.0.0/16"} {
		if r := h.peeringRoute(t, table, dest); r == nil || aws.ToString(r.VpcPeeringConnectionId) != id || r.State != types.RouteStateActive {
			t.Errorf("route table %s routes %s through %s: %+v", table, dest, id, r)
		}
	}

	// A steady sync writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, pcx, "the connection read again", func() bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["DescribeVpcPeeringConnections"] > 0
	})
	time.Sleep(300 * time.Millisecond)
	steady := peeringCalls(kubetest.Calls(h.emu.Calls.Snapshot(), "EC2"))
	t.Logf("figures: peering calls per steady sync %v", steady)
	if n := steady["CreateVpcPeeringConnection"] + steady["AcceptVpcPeeringConnection"] + steady["ModifyVpcPeeringConnectionOptions"]; n != 0 {
		t.Errorf("a steady sync wrote: %v", steady)
	}

	// Drift: the requester's DNS option turned off outside the operator is turned on again.
	if _, err := h.ec2.ModifyVpcPeeringConnectionOptions(ctx, &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(id),
		RequesterPeeringConnectionOptions: &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, pcx, "the DNS option restored", func() bool {
		return aws.ToBool(h.peering(t, h.ec2, id).RequesterVpcInfo.PeeringOptions.AllowDnsResolutionFromRemoteVpc)
	})

	// Admission refuses what cannot work.
	bad := &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bad"}}
	bad.Spec.ProviderRef.Name = "production-aws"
	bad.Spec.VPCID, bad.Spec.VPCRef, bad.Spec.PeerVPCID = "vpc-0123456789abcdef0", &shared.Reference{Name: "orders-vpc"}, "vpc-0123456789abcdef1"
	kubetest.MustRefuse(t, h.c, bad, "set exactly one of vpcID and vpcRef")
	bad.Spec.VPCRef, bad.Spec.AccepterProviderRef = nil, &shared.ProviderReference{Name: "peer"}
	kubetest.MustRefuse(t, h.c, bad, "accepterProviderRef is the peer account's provider")
	bad.Spec.AccepterProviderRef, bad.Spec.PeerVPCRef = nil, &shared.Reference{Name: "billing-vpc"}
	bad.Spec.PeerOwnerID = peerAccount
	kubetest.MustRefuse(t, h.c, bad, "set exactly one of peerVPCID and peerVPCRef")
	kubetest.MustRefuseUpdate(t, h.c, pcx, func(o *v1alpha1.VPCPeeringConnection) { o.Spec.PeerVPCRef.Name = "orders-vpc" }, "the peer VPC and its owner cannot change")
	kubetest.MustRefuseUpdate(t, h.c, orders, func(o *v1alpha1.RouteTable) { o.Spec.Routes[0].GatewayID = "igw-0123456789abcdef0" }, "set exactly one target")

	// Deletion: the route tables, then the connection.
	kubetest.Delete(t, h.c, orders)
	kubetest.Delete(t, h.c, billing)
	kubetest.WaitGone(t, h.c, orders)
	kubetest.WaitGone(t, h.c, billing)
	kubetest.Delete(t, h.c, pcx)
	kubetest.WaitGone(t, h.c, pcx)
	if s := code(h.peering(t, h.ec2, id)); s != types.VpcPeeringConnectionStateReasonCodeDeleted && s != types.VpcPeeringConnectionStateReasonCodeDeleting {
		t.Errorf("after deletion the connection is %s", s)
	}
}

// TestVPCPeeringConnectionOverlap checks that a connection between VPCs whose CIDR blocks
// overlap, which AWS makes failed, is terminal with AWS's message, and that deleting the object
// then needs no AWS call to the connection.
func TestVPCPeeringConnectionOverlap(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	a, b := h.readyVPC(t, ns, "a", "10.50.0.0/16"), h.readyVPC(t, ns, "b", "10.50.128.0/17")
	pcx := &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "overlap"}}
	pcx.Spec.ProviderRef.Name = "aws"
	pcx.Spec.VPCRef, pcx.Spec.PeerVPCRef = &shared.Reference{Name: a.Name}, &shared.Reference{Name: b.Name}
	kubetest.Create(t, h.c, pcx)
	got := kubetest.WaitCondition(t, h.c, pcx, condition.TypeStalled, "True", condition.ReasonPeeringFailed)
	if c := meta.FindStatusCondition(got.Status.Conditions, condition.TypeSynced); c == nil || !strings.Contains(c.Message, "overlapping CIDR range") || got.Status.Status != "failed" {
		t.Errorf("the failure names AWS's cause: %+v, status %+v", c, got.Status)
	}
	h.emu.Calls.Reset()
	kubetest.Delete(t, h.c, pcx)
	kubetest.WaitGone(t, h.c, pcx)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["DeleteVpcPeeringConnection"]; n != 0 {
		t.Errorf("a failed connection was deleted %d times", n)
	}
}

// TestVPCPeeringConnectionCrossAccount peers a VPC with one of another account: through
// accepterProviderRef (an AWSProvider of the peer account) the operator accepts the connection
// and sets the accepter's DNS option; without it the connection waits with AwaitingAcceptance
// naming the account, and is Ready once that account accepts it (here through the SDK).
func TestVPCPeeringConnectionCrossAccount(t *testing.T) {
	h := startAccounts(t, map[string]string{peerAccessKey: peerAccount})
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	h.env.Provider(t, ns, "peer", peerAccessKey, peerSecretKey)
	peerEC2 := ec2.NewFromConfig(h.env.AWSConfig(peerAccessKey, peerSecretKey))
	requester := h.readyVPC(t, ns, "requester", "10.60.0.0/16")
	// The peer VPC is this namespace's own, made in the peer account.
	peerVPC := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "peer-vpc"}}
	peerVPC.Spec.ProviderRef.Name, peerVPC.Spec.CIDRBlock = "peer", "10.61.0.0/16"
	kubetest.Create(t, h.c, peerVPC)
	peerVPC = kubetest.WaitReady(t, h.c, peerVPC)

	accepted := &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "accepted"}}
	accepted.Spec.ProviderRef.Name = "aws"
	accepted.Spec.VPCRef = &shared.Reference{Name: requester.Name}
	accepted.Spec.PeerVPCID, accepted.Spec.PeerOwnerID = peerVPC.Status.VPCID, peerAccount
	accepted.Spec.AccepterProviderRef = &shared.ProviderReference{Name: "peer"}
	accepted.Spec.AccepterOptions = &v1alpha1.VPCPeeringOptions{AllowDNSResolutionFromRemoteVPC: aws.Bool(true)}
	kubetest.Create(t, h.c, accepted)
	accepted = kubetest.WaitReady(t, h.c, accepted)
	c := h.peering(t, peerEC2, accepted.Status.VPCPeeringConnectionID)
	if code(c) != types.VpcPeeringConnectionStateReasonCodeActive || !aws.ToBool(c.AccepterVpcInfo.PeeringOptions.AllowDnsResolutionFromRemoteVpc) ||
		accepted.Status.AccepterOwnerID != peerAccount {
		t.Errorf("accepted through the peer account, with its DNS option: %+v, status %+v", c, accepted.Status)
	}

	// Without accepterProviderRef the connection waits for the peer account.
	waiting := &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "waiting"}}
	waiting.Spec.ProviderRef.Name = "aws"
	waiting.Spec.VPCRef = &shared.Reference{Name: requester.Name}
	waiting.Spec.PeerVPCID, waiting.Spec.PeerOwnerID = peerVPC.Status.VPCID, peerAccount
	kubetest.Create(t, h.c, waiting)
	waiting = kubetest.WaitCondition(t, h.c, waiting, condition.TypeReady, "False", condition.ReasonAwaitingAcceptance)
	if c := meta.FindStatusCondition(waiting.Status.Conditions, condition.TypeReady); !strings.Contains(c.Message, peerAccount) {
		t.Errorf("the condition names the account that must accept: %q", c.Message)
	}
	if _, err := peerEC2.AcceptVpcPeeringConnection(context.Background(), &ec2.AcceptVpcPeeringConnectionInput{
		VpcPeeringConnectionId: aws.String(waiting.Status.VPCPeeringConnectionID)}); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitReady(t, h.c, waiting)

	// An accepterProviderRef to a provider the namespace may not use is refused as providerRef
	// would be, and nothing is accepted.
	other := h.env.Namespace(t)
	h.provider(t, other, "aws")
	h.env.Provider(t, other, "aws-peer", peerAccessKey, peerSecretKey)
	borrowed := &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "borrowed"}}
	borrowed.Spec.ProviderRef.Name = "aws"
	borrowed.Spec.VPCID = h.otherVPC(t, "10.62.0.0/16")
	borrowed.Spec.PeerVPCID, borrowed.Spec.PeerOwnerID = peerVPC.Status.VPCID, peerAccount
	borrowed.Spec.AccepterProviderRef = &shared.ProviderReference{Name: "peer", Namespace: ns}
	kubetest.Create(t, h.c, borrowed)
	kubetest.WaitCondition(t, h.c, borrowed, condition.TypeReady, "False", condition.ReasonProviderNotAllowed)
	// A provider of the namespace for the peer account, whose VPC the namespace did not make.
	kubetest.Update(t, h.c, borrowed, func(o *v1alpha1.VPCPeeringConnection) {
		o.Spec.AccepterProviderRef = &shared.ProviderReference{Name: "aws-peer"}
	})
	kubetest.WaitCondition(t, h.c, borrowed, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if s := code(h.peering(t, peerEC2, kubetest.WaitFor(t, h.c, borrowed, kubetest.Timeout, "its id", func(o *v1alpha1.VPCPeeringConnection) bool {
		return o.Status.VPCPeeringConnectionID != ""
	}).Status.VPCPeeringConnectionID)); s != types.VpcPeeringConnectionStateReasonCodePendingAcceptance {
		t.Errorf("a refused acceptance left the connection %s", s)
	}
}

// TestVPCPeeringConnectionHostileNamespace checks that a namespace cannot peer its VPC with
// another namespace's VPC of the same account named by id: accepting would join that VPC's
// routing domain, so the connection is refused before any request is made; and that a peer VPC
// the namespace only observes (peerVPCRef is a writing reference) is waited for.
func TestVPCPeeringConnectionHostileNamespace(t *testing.T) {
	h := start(t)
	victim := h.env.Namespace(t)
	h.provider(t, victim, "aws")
	target := h.readyVPC(t, victim, "private", "10.70.0.0/16")
	hostile := h.env.Namespace(t)
	h.provider(t, hostile, "aws")
	mine := h.readyVPC(t, hostile, "mine", "10.71.0.0/16")
	h.emu.Calls.Reset()
	pcx := &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: hostile, Name: "into-victim"}}
	pcx.Spec.ProviderRef.Name = "aws"
	pcx.Spec.VPCRef, pcx.Spec.PeerVPCID = &shared.Reference{Name: mine.Name}, target.Status.VPCID
	kubetest.Create(t, h.c, pcx)
	kubetest.WaitCondition(t, h.c, pcx, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	calls := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")
	if n := calls["CreateVpcPeeringConnection"] + calls["AcceptVpcPeeringConnection"]; n != 0 {
		t.Errorf("a refused connection made %d peering calls", n)
	}

	// peerVPCRef writes into its VPC: a VPC the namespace only observes is waited for.
	observed := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: hostile, Name: "observed",
		Annotations: map[string]string{shared.AnnotationExternalName: h.otherVPC(t, "10.72.0.0/16")}}}
	observed.Spec.ProviderRef.Name, observed.Spec.CIDRBlock = "aws", "10.72.0.0/16"
	observed.Spec.ManagementPolicy = shared.ManagementPolicyObserveOnly
	kubetest.Create(t, h.c, observed)
	kubetest.WaitReady(t, h.c, observed)
	viaRef := &v1alpha1.VPCPeeringConnection{ObjectMeta: metav1.ObjectMeta{Namespace: hostile, Name: "into-observed"}}
	viaRef.Spec.ProviderRef.Name = "aws"
	viaRef.Spec.VPCRef, viaRef.Spec.PeerVPCRef = &shared.Reference{Name: mine.Name}, &shared.Reference{Name: observed.Name}
	kubetest.Create(t, h.c, viaRef)
	kubetest.WaitCondition(t, h.c, viaRef, condition.TypeReady, "False", condition.ReasonReferenceObserveOnly)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["CreateVpcPeeringConnection"]; n != 0 {
		t.Errorf("a connection into an observed VPC made %d requests", n)
	}
}

// startAccounts is start with the emulator mapping access keys to accounts.
func startAccounts(t testing.TB, accounts map[string]string) *harness {
	t.Helper()
	emu := emulator.New(emulator.Options{Transitions: testTransitions, Accounts: accounts})
	env := families.Start(t, emu, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, networking.Family(),
		security.FamilyWith(security.Tunables{ACMCertificate: acmcertificate.Tunables{RecheckMin: 200 * time.Millisecond, RecheckMax: time.Second}}))
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{env: env, emu: emu, ec2: ec2.NewFromConfig(cfg), c: env.Client}
}

// otherVPC creates, through the SDK, a VPC of the test account that no object made.
func (h *harness) otherVPC(t testing.TB, cidr string) string {
	t.Helper()
	out, err := h.ec2.CreateVpc(context.Background(), &ec2.CreateVpcInput{CidrBlock: aws.String(cidr)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.Vpc.VpcId)
}

// peering describes the VPC peering connection id through api.
func (h *harness) peering(t testing.TB, api *ec2.Client, id string) types.VpcPeeringConnection {
	t.Helper()
	out, err := api.DescribeVpcPeeringConnections(context.Background(), &ec2.DescribeVpcPeeringConnectionsInput{VpcPeeringConnectionIds: []string{id}})
	if err != nil || len(out.VpcPeeringConnections) != 1 {
		t.Fatalf("describe VPC peering connection %s: %+v, %v", id, out, err)
	}
	return out.VpcPeeringConnections[0]
}

// peeringRoute returns the route of table id to dest, or nil.
func (h *harness) peeringRoute(t testing.TB, id, dest string) *types.Route {
	t.Helper()
	out, err := h.ec2.DescribeRouteTables(context.Background(), &ec2.DescribeRouteTablesInput{RouteTableIds: []string{id}})
	if err != nil || len(out.RouteTables) != 1 {
		t.Fatalf("describe route table %s: %+v, %v", id, out, err)
	}
	i := slices.IndexFunc(out.RouteTables[0].Routes, func(r types.Route) bool { return aws.ToString(r.DestinationCidrBlock) == dest })
	if i < 0 {
		return nil
	}
	return &out.RouteTables[0].Routes[i]
}

// code returns a connection's status code.
func code(c types.VpcPeeringConnection) types.VpcPeeringConnectionStateReasonCode {
	if c.Status == nil {
		return ""
	}
	return c.Status.Code
}

// peeringCalls keeps the VPC peering calls of an EC2 call count.
func peeringCalls(calls map[string]int) map[string]int {
	out := map[string]int{}
	for op, n := range calls {
		if strings.Contains(op, "VpcPeeringConnection") {
			out[op] = n
		}
	}
	return out
}
