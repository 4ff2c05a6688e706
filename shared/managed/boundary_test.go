package managed

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// TestCheckForeignWrite checks that a write into a resource named by ARN is allowed only into a
// resource whose owner-namespace tag names the object's namespace, unless the administrator's
// boundary (carried by the context) lets the namespace write into others', and that a refusal
// is terminal and names the flag.
func TestCheckForeignWrite(t *testing.T) {
	o := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "w"}}
	ours := map[string]string{v1alpha1.TagOwnerNamespace: "team", v1alpha1.TagOwnerUID: "uid-1"}
	theirs := map[string]string{v1alpha1.TagOwnerNamespace: "other", v1alpha1.TagOwnerUID: "uid-2"}
	cases := map[string]struct {
		reason   string
		boundary *Boundary
		tags     map[string]string
		want     string
	}{
		"Ours":          {reason: "A resource an object of the namespace made is written to.", tags: ours},
		"Theirs":        {reason: "Another namespace's resource is refused by default.", tags: theirs, want: condition.ReasonForeignWriteNotAllowed},
		"Untagged":      {reason: "A resource the operator did not make is refused by default.", tags: map[string]string{"team": "x"}, want: condition.ReasonForeignWriteNotAllowed},
		"NoTags":        {reason: "A resource without any tag is refused by default.", want: condition.ReasonForeignWriteNotAllowed},
		"AllowedByName": {reason: "The administrator lets the namespace write into others' resources.", boundary: &Boundary{ForeignWriteNamespaces: []string{"team"}}, tags: theirs},
		"AllowedByStar": {reason: `"*" lets every namespace write into others' resources.`, boundary: &Boundary{ForeignWriteNamespaces: []string{"*"}}, tags: theirs},
		"OtherAllowed": {reason: "Another namespace's leave is not this one's.", boundary: &Boundary{ForeignWriteNamespaces: []string{"platform"}}, tags: theirs,
			want: condition.ReasonForeignWriteNotAllowed},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if tc.boundary != nil {
				ctx = WithBoundary(ctx, tc.boundary)
			}
			got := ""
			if err := CheckForeignWrite(ctx, o, "SQS queue", "arn:aws:sqs:us-east-1:123456789012:q", tc.tags); err != nil {
				term, ok := AsTerminal(err)
				if !ok {
					t.Fatalf("%s: got %v; want a terminal error", tc.reason, err)
				}
				got = term.Reason
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
