package security_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestIAMRoleReadAfterCreateDelay hides each new role from IAM's reads for 3s after CreateRole
// succeeded, as IAM's eventual consistency can (GetRole answers NoSuchEntity right after a
// successful create, and a second CreateRole EntityAlreadyExists): the operator reads the role
// while it is hidden, and the object still becomes Ready, with exactly one role of its namespace
// in IAM, carrying its ownership tag.
func TestIAMRoleReadAfterCreateDelay(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	const delay = 3 * time.Second
	h.emu.Faults.Set("IAM.CreateRole", emulator.Fault{ReadAfterCreateDelay: emulator.Duration(delay)})
	t.Cleanup(func() { h.emu.Faults.Set("IAM.CreateRole", emulator.Fault{}) })
	r := &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "lagging"}}
	r.Spec.ProviderRef.Name = "aws"
	r.Spec.RoleName, r.Spec.AssumeRolePolicyDocument = ns+"-lagging", trust
	kubetest.Create(t, h.c, r)
	r = kubetest.WaitReady(t, h.c, r)
	time.Sleep(delay) // whatever the operator created is visible by now
	out, err := h.iam.ListRoles(ctx, &iam.ListRolesInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, role := range out.Roles {
		if strings.HasPrefix(aws.ToString(role.RoleName), ns+"-") {
			names = append(names, aws.ToString(role.RoleName))
		}
	}
	if len(names) != 1 || names[0] != r.Spec.RoleName {
		t.Fatalf("roles of the namespace in IAM: %v, want only %s", names, r.Spec.RoleName)
	}
	tags, err := h.iam.ListRoleTags(ctx, &iam.ListRoleTagsInput{RoleName: aws.String(r.Spec.RoleName)})
	if err != nil {
		t.Fatal(err)
	}
	owner := ""
	for _, tag := range tags.Tags {
		if aws.ToString(tag.Key) == shared.TagOwnerUID {
			owner = aws.ToString(tag.Value)
		}
	}
	if owner != string(r.UID) {
		t.Errorf("the role's ownership tag is %q, want the object's uid %s", owner, r.UID)
	}
	if calls := h.emu.Calls.Snapshot()["IAM"]; calls["GetRole"]["NoSuchEntity"] == 0 {
		t.Errorf("no read found the role hidden, so the delay was not exercised: %v", calls)
	}
}
