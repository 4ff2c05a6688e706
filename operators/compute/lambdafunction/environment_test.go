package lambdafunction

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestEnvironmentSize checks the measure of an environment: the JSON object of names and
// values, with <, > and & as their six-byte escapes.
func TestEnvironmentSize(t *testing.T) {
	cases := map[string]struct {
		reason string
		env    map[string]string
		want   int
	}{
		"Empty":  {reason: "No variables are the empty object.", env: map[string]string{}, want: len(`{}`)},
		"One":    {reason: "Name, value, quotes, colon and braces count.", env: map[string]string{"A": "b"}, want: len(`{"A":"b"}`)},
		"Two":    {reason: "A comma separates variables.", env: map[string]string{"A": "b", "C": "d"}, want: len(`{"A":"b","C":"d"}`)},
		"Quotes": {reason: "Escaped characters count as written.", env: map[string]string{"A": `"`}, want: len(`{"A":"\""}`)},
		"HTML":   {reason: "<, > and & count as \\u003c and the like.", env: map[string]string{"A": "<"}, want: len(`{"A":"\u003c"}`)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, environmentSize(tc.env)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestEnvironmentLimit checks that an environment of exactly 4096 bytes, Secret values
// included, is sent, and one byte more is a terminal EnvironmentTooLarge error that names the
// size and no value, whether the bytes come from the spec or from a Secret; and that the
// Secret's value is registered as secret in the pass.
func TestEnvironmentLimit(t *testing.T) {
	// {"A":"<spec value>","T":"<secret value>"} is 21 bytes around the two values.
	const frame = len(`{"A":"","T":""}`)
	const secretValue = "secret-value-"
	cases := map[string]struct {
		reason    string
		specValue int
		secret    string
		want      string
	}{
		"AtLimit": {reason: "4096 bytes are what Lambda allows.",
			specValue: maxEnvironment - frame - 100, secret: secretValue + strings.Repeat("x", 100-len(secretValue))},
		"SpecOver": {reason: "One byte more in the spec's values is refused.",
			specValue: maxEnvironment - frame - 99, secret: secretValue + strings.Repeat("x", 100-len(secretValue)), want: condition.ReasonEnvironmentTooLarge},
		"SecretOver": {reason: "One byte more in a Secret's value is refused too.",
			specValue: maxEnvironment - frame - 100, secret: secretValue + strings.Repeat("x", 101-len(secretValue)), want: condition.ReasonEnvironmentTooLarge},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube := fake.NewClientBuilder().WithObjects(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "app"},
				Data: map[string][]byte{"token": []byte(tc.secret)}}).Build()
			f := &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "fn"}}
			f.Spec.FunctionName = "team-fn"
			f.Spec.Environment = &v1alpha1.Environment{Variables: map[string]string{"A": strings.Repeat("v", tc.specValue)},
				FromSecrets: []v1alpha1.SecretVariable{{Name: "T", SecretKeyRef: shared.SecretKeySelector{Name: "app", Key: "token"}}}}
			ctx, secrets := managed.WithSecrets(context.Background())
			env, err := (&driver{kube: kube}).environment(ctx, f)
			got := ""
			if te, ok := managed.AsTerminal(err); ok {
				got = te.Reason
				if strings.Contains(te.Error(), secretValue) || !strings.Contains(te.Error(), " 4097 bytes") {
					t.Errorf("the refusal does not name the size, or shows the value: %s", te.Error())
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if err == nil && environmentSize(env) != maxEnvironment {
				t.Errorf("the environment sent is %d bytes, want %d", environmentSize(env), maxEnvironment)
			}
			if diff := cmp.Diff([]string{tc.secret}, secrets.Values()); diff != "" {
				t.Errorf("the registered secrets differ (-want +got):\n%s", diff)
			}
		})
	}
}
