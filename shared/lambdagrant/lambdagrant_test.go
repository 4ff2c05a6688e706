package lambdagrant

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// fakeLambda holds functions' statement ids and ownership namespaces, and records the writes.
type fakeLambda struct {
	API
	sids   map[string][]string
	owners map[string]string
	writes []string
}

func (f *fakeLambda) GetPolicy(_ context.Context, in *lambda.GetPolicyInput, _ ...func(*lambda.Options)) (*lambda.GetPolicyOutput, error) {
	var doc struct{ Statement []map[string]string }
	for _, sid := range f.sids[*in.FunctionName] {
		doc.Statement = append(doc.Statement, map[string]string{"Sid": sid})
	}
	b, _ := json.Marshal(doc)
	return &lambda.GetPolicyOutput{Policy: aws.String(string(b))}, nil
}

func (f *fakeLambda) ListTags(_ context.Context, in *lambda.ListTagsInput, _ ...func(*lambda.Options)) (*lambda.ListTagsOutput, error) {
	return &lambda.ListTagsOutput{Tags: map[string]string{shared.TagOwnerNamespace: f.owners[*in.Resource]}}, nil
}

func (f *fakeLambda) AddPermission(_ context.Context, in *lambda.AddPermissionInput, _ ...func(*lambda.Options)) (*lambda.AddPermissionOutput, error) {
	f.writes = append(f.writes, "add "+*in.FunctionName+" "+*in.StatementId+" "+*in.Principal+" "+*in.SourceArn)
	return &lambda.AddPermissionOutput{}, nil
}

func (f *fakeLambda) RemovePermission(_ context.Context, in *lambda.RemovePermissionInput, _ ...func(*lambda.Options)) (*lambda.RemovePermissionOutput, error) {
	f.writes = append(f.writes, "remove "+*in.FunctionName+" "+*in.StatementId)
	return &lambda.RemovePermissionOutput{}, nil
}

// TestPlan checks what Plan writes: the missing statements of functions the namespace owns,
// the removal of those no longer wanted, and nothing at all when a function belongs to another
// namespace.
func TestPlan(t *testing.T) {
	type want struct {
		Now     []string
		Writes  []string
		Changed []string
		Refused bool
	}
	grant := func(fn, sid string) Grant {
		return Grant{Function: fn, StatementID: sid, SourceARN: "arn:source/" + sid}
	}
	cases := map[string]struct {
		reason    string
		want, had []Grant
		sids      map[string][]string
		result    want
	}{
		"AddsMissing": {reason: "a statement the policy lacks is added, with the invoker's principal and the source",
			want:   []Grant{grant("mine", "s1")},
			result: want{Writes: []string{"add mine s1 elasticloadbalancing.amazonaws.com arn:source/s1"}, Changed: []string{"+mine"}}},
		"KeepsPresent": {reason: "a statement already there is in force and written again by nobody",
			want: []Grant{grant("mine", "s1")}, sids: map[string][]string{"mine": {"s1"}},
			result: want{Now: []string{"mine"}}},
		"RemovesUnwanted": {reason: "a recorded statement no longer wanted is removed, and in force until then",
			had: []Grant{grant("mine", "s1")}, sids: map[string][]string{"mine": {"s1"}},
			result: want{Now: []string{"mine"}, Writes: []string{"remove mine s1"}, Changed: []string{"-mine"}}},
		"RefusesForeign": {reason: "a function of another namespace gets no statement, and nothing is written",
			want: []Grant{grant("mine", "s1"), grant("theirs", "s1")}, result: want{Refused: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			api := &fakeLambda{sids: tc.sids, owners: map[string]string{"mine": "team-a", "theirs": "team-b"}}
			inv := Invoker{API: api, Principal: "elasticloadbalancing.amazonaws.com", Name: "the target group"}
			o := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "w"}}
			var plan managed.Plan
			var got want
			now, err := inv.Plan(context.Background(), o, tc.want, tc.had, &plan, "invokeGrants", func(g Grant, added bool) {
				got.Changed = append(got.Changed, map[bool]string{true: "+", false: "-"}[added]+g.Function)
			})
			var terminal *managed.TerminalError
			got.Refused = errors.As(err, &terminal)
			if err != nil && !got.Refused {
				t.Fatal(err)
			}
			if err == nil {
				if err := plan.Apply(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			for _, g := range now {
				got.Now = append(got.Now, g.Function)
			}
			got.Writes = slices.Clone(api.writes)
			if diff := cmp.Diff(tc.result, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
