package managed

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// TestCompanionEnsure checks that a companion is created, that one of its name is reused only
// when the object owns it, and that other errors are returned with their context.
func TestCompanionEnsure(t *testing.T) {
	taken := &smithy.GenericAPIError{Code: "GroupAlreadyExists", Message: "taken"}
	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{UID: "uid-1", Namespace: "ns", Name: "w"}}
	type want struct {
		reason string // the terminal reason, "" for none
		err    string // the error's text, "" for none
		reads  int    // tag reads
	}
	for name, tc := range map[string]struct {
		reason string
		create error
		tags   map[string]string
		want   want
	}{
		"Created":         {reason: "A create that succeeds is the end of it.", want: want{}},
		"TakenByItself":   {reason: "A companion this object made before a crash is used.", create: taken, tags: map[string]string{v1alpha1.TagOwnerUID: "uid-1"}, want: want{reads: 1}},
		"TakenByAnother":  {reason: "A companion another object made is refused.", create: taken, tags: map[string]string{v1alpha1.TagOwnerUID: "uid-2"}, want: want{reason: condition.ReasonAlreadyExists, err: "a widget group named w-group, which this object did not make, already exists; set spec.groupName to w-group to use it, or delete it", reads: 1}},
		"TakenByHand":     {reason: "A companion made outside the operator is refused.", create: taken, tags: map[string]string{}, want: want{reason: condition.ReasonAlreadyExists, err: "a widget group named w-group, which this object did not make, already exists; set spec.groupName to w-group to use it, or delete it", reads: 1}},
		"OtherCreateFail": {reason: "Another error is returned with its context.", create: errors.New("boom"), want: want{err: "create widget group w-group: boom"}},
	} {
		t.Run(name, func(t *testing.T) {
			reads := 0
			c := Companion{Kind: "widget group", Name: "w-group", Instead: "spec.groupName", Taken: "GroupAlreadyExists",
				Create: func(context.Context) error { return tc.create },
				Tags:   func(context.Context) (map[string]string, error) { reads++; return tc.tags, nil }}
			err := c.Ensure(context.Background(), w)
			got := want{reads: reads}
			if err != nil {
				got.err = err.Error()
			}
			if term, ok := AsTerminal(err); ok {
				got.reason = term.Reason
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCompanionPlanMembersAndDelete checks that members are changed only when they differ as
// sets, and that deleting a companion already gone succeeds.
func TestCompanionPlanMembersAndDelete(t *testing.T) {
	c := Companion{Kind: "widget group", Name: "w-group"}
	for name, tc := range map[string]struct {
		have, want []string
		planned    []string
	}{
		"Same":      {have: []string{"a", "b"}, want: []string{"b", "a", "a"}},
		"Added":     {have: []string{"a"}, want: []string{"a", "b"}, planned: []string{"subnetIDs"}},
		"Removed":   {have: []string{"a", "b"}, want: []string{"a"}, planned: []string{"subnetIDs"}},
		"BothEmpty": {},
	} {
		var plan Plan
		c.PlanMembers(&plan, "subnetIDs", tc.have, tc.want, func(context.Context) error { return errors.New("refused") })
		if diff := cmp.Diff(tc.planned, plan.Fields()); diff != "" {
			t.Errorf("%s: planned fields\n-want +got:\n%s", name, diff)
		}
		if len(plan) > 0 {
			if err := plan.Apply(context.Background()); err == nil || err.Error() != "change the members of widget group w-group: refused" {
				t.Errorf("%s: applying the change: %v", name, err)
			}
		}
	}
	gone := &smithy.GenericAPIError{Code: "GroupNotFoundFault"}
	for name, tc := range map[string]struct {
		del  error
		want string
	}{
		"Deleted": {},
		"Gone":    {del: gone},
		"InUse":   {del: errors.New("in use"), want: "delete widget group w-group: in use"},
	} {
		err := c.Delete(context.Background(), func(context.Context) error { return tc.del })
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: Delete = %q, want %q", name, got, tc.want)
		}
	}
}
