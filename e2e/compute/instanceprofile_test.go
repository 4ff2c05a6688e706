package compute_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// ec2Trust is a trust policy for EC2.
const ec2Trust = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}`

// TestEC2InstanceProfileRef runs the operator with a --passable-roles rule that allows no role
// of the account: an instance whose iamInstanceProfileRef names the namespace's own
// IAMInstanceProfile (holding the namespace's own IAMRole) waits for it, then runs with that
// profile, while an instance naming a profile made outside the cluster is refused before any
// EC2 call; both fields at once are refused at admission.
func TestEC2InstanceProfileRef(t *testing.T) {
	h := startWith(t, testTransitions, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		o.PassableRoles = []string{"*=arn:aws:iam::{account}:role/shared-*"}
	})
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.61.0.0/16", "10.61.1.0/24")

	web := newInstance(ns, "web", subnet, func(i *v1alpha1.EC2Instance) { i.Spec.IAMInstanceProfileRef = &shared.Reference{Name: "web"} })
	kubetest.Create(t, h.c, web)
	kubetest.WaitCondition(t, h.c, web, condition.TypeSynced, "False", condition.ReasonReferenceNotFound)

	role := &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}}
	role.Spec.ProviderRef.Name = "aws"
	role.Spec.RoleName, role.Spec.AssumeRolePolicyDocument = ns+"-web", ec2Trust
	kubetest.Create(t, h.c, role)
	profile := &secv1alpha1.IAMInstanceProfile{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}}
	profile.Spec.ProviderRef.Name = "aws"
	profile.Spec.InstanceProfileName, profile.Spec.RoleRef = ns+"-web", &shared.Reference{Name: "web"}
	kubetest.Create(t, h.c, profile)
	profile = kubetest.WaitReady(t, h.c, profile)
	web = kubetest.WaitReady(t, h.c, web)
	if got := h.instance(t, web.Status.InstanceID).IamInstanceProfile; got == nil || aws.ToString(got.Arn) != profile.Status.ARN {
		t.Errorf("the instance runs with profile %+v, want %s", got, profile.Status.ARN)
	}

	h.emu.Calls.Reset()
	foreign := newInstance(ns, "foreign", subnet, func(i *v1alpha1.EC2Instance) { i.Spec.IAMInstanceProfile = "platform-admin" })
	kubetest.Create(t, h.c, foreign)
	kubetest.WaitCondition(t, h.c, foreign, condition.TypeSynced, "False", condition.ReasonRoleNotPassable)
	if calls := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2"); calls["RunInstances"] != 0 {
		t.Errorf("an instance refused for its profile was launched: %v", calls)
	}

	both := newInstance(ns, "both", subnet, func(i *v1alpha1.EC2Instance) {
		i.Spec.IAMInstanceProfile, i.Spec.IAMInstanceProfileRef = "platform-admin", &shared.Reference{Name: "web"}
	})
	kubetest.MustRefuse(t, h.c, both, "not both")
}
