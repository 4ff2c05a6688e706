package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// testSecret is a secret value with characters that JSON and Go quoting escape.
const testSecret = `pa<ss>"w\ord&1`

// registry returns a secret registry holding values.
func registry(values ...string) *managed.Secrets {
	ctx, s := managed.WithSecrets(context.Background())
	for _, v := range values {
		managed.RegisterSecret(ctx, []byte(v))
	}
	return s
}

// TestScrubText checks that each form in which a secret value may appear in a message is
// replaced, that values below minScrubbed are left alone, and that a value holding another is
// replaced whole.
func TestScrubText(t *testing.T) {
	htmlJSON, _ := json.Marshal(map[string]string{"TOKEN": testSecret})
	cases := map[string]struct {
		reason  string
		secrets *managed.Secrets
		text    string
		want    string
	}{
		"Raw": {reason: "The value itself.", secrets: registry(testSecret),
			text: "refused " + testSecret + " twice: " + testSecret, want: "refused [secret] twice: [secret]"},
		"JSON": {reason: "Lambda echoes the environment as JSON; encoding/json escapes <, > and & too.", secrets: registry(testSecret),
			text: "String measured: " + string(htmlJSON), want: `String measured: {"TOKEN":"[secret]"}`},
		"JSONPlain": {reason: "JSON without the HTML escapes, as AWS writes it.", secrets: registry(testSecret),
			text: `{"TOKEN":"pa<ss>\"w\\ord&1"}`, want: `{"TOKEN":"[secret]"}`},
		"Quoted": {reason: "Messages quote with %q.", secrets: registry("line1\nline2"),
			text: fmt.Sprintf("value %q", "line1\nline2"), want: `value "[secret]"`},
		"Base64": {reason: "AWS echoes binary fields in base64; the padding is left.", secrets: registry("abcde"),
			text: "UserData " + base64.StdEncoding.EncodeToString([]byte("abcde")), want: "UserData [secret]="},
		"Longest": {reason: "A value that holds another registered value is replaced whole.", secrets: registry("abcd", "abcdefgh"),
			text: "x abcdefgh y abcd", want: "x [secret] y [secret]"},
		"Short": {reason: "Values under 4 bytes are not scrubbed (see minScrubbed).", secrets: registry("on", "123"),
			text: "size 123 is on", want: "size 123 is on"},
		"NoRegistry": {reason: "Outside a pass nothing is registered.", secrets: nil, text: testSecret, want: testSecret},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, scrubText(tc.secrets, tc.text)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	if got := registry("").Values(); len(got) != 0 {
		t.Errorf("an empty value was registered: %q", got)
	}
}

// scrubbedClass is what a reconciler and a logger learn from an error.
type scrubbedClass struct {
	Class     awserr.Class
	Code      string
	Describe  string
	Deadline  bool
	HasSecret bool
}

// TestScrubError checks that a scrubbed error classifies as the original does (the AWS error
// code, the HTTP status, the transport), that its text and everything found in it are free of
// the value, and that an error without the value is returned as it is.
func TestScrubError(t *testing.T) {
	s := registry(testSecret)
	echo := func(code string) error {
		return &smithy.GenericAPIError{Code: code, Message: "refused value " + testSecret}
	}
	op := func(err error) error {
		return fmt.Errorf("create: %w", &smithy.OperationError{ServiceID: "Lambda", OperationName: "CreateFunction", Err: err})
	}
	unavailable := &smithyhttp.ResponseError{Response: &smithyhttp.Response{Response: &http.Response{StatusCode: 503}},
		Err: echo("Mystery")}
	cases := map[string]struct {
		reason string
		err    error
		want   scrubbedClass
	}{
		"InvalidInput": {reason: "An AWS refusal that echoes the request stays terminal.", err: op(echo("InvalidParameterValueException")),
			want: scrubbedClass{Class: awserr.ClassInvalidInput, Code: "InvalidParameterValueException",
				Describe: "Lambda CreateFunction: InvalidParameterValueException: refused value [secret]"}},
		"Throttled": {reason: "A throttle is still a throttle.", err: op(echo("ThrottlingException")),
			want: scrubbedClass{Class: awserr.ClassThrottling, Code: "ThrottlingException",
				Describe: "Lambda CreateFunction: ThrottlingException: refused value [secret]"}},
		"ServerError": {reason: "An unknown code with a 5xx status is still Unavailable.", err: op(unavailable),
			want: scrubbedClass{Class: awserr.ClassUnavailable, Code: "Mystery",
				Describe: "Lambda CreateFunction: Mystery: refused value [secret]"}},
		"Network": {reason: "A network error is still Unavailable.", err: &net.OpError{Op: "dial", Err: errors.New("no route to " + testSecret)},
			want: scrubbedClass{Class: awserr.ClassUnavailable, Describe: "dial: no route to [secret]"}},
		"Retries": {reason: "Exhausted retries are still Unavailable.", err: &retry.MaxAttemptsError{Attempt: 3, Err: errors.New(testSecret)},
			want: scrubbedClass{Class: awserr.ClassUnavailable, Describe: "exceeded maximum number of attempts, 3, [secret]"}},
		"Deadline": {reason: "errors.Is sees the deadline through the scrub.", err: fmt.Errorf("%s: %w", testSecret, context.DeadlineExceeded),
			want: scrubbedClass{Class: awserr.ClassUnavailable, Describe: "[secret]: context deadline exceeded", Deadline: true}},
		"Clean": {reason: "An error without the value is unchanged.", err: op(&smithy.GenericAPIError{Code: "AccessDenied", Message: "no"}),
			want: scrubbedClass{Class: awserr.ClassAccessDenied, Code: "AccessDenied", Describe: "Lambda CreateFunction: AccessDenied: no"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := scrubError(s, tc.err)
			if diff := cmp.Diff(awserr.Classify(tc.err), awserr.Classify(got)); diff != "" {
				t.Errorf("%s: the class changed\n-original +scrubbed:\n%s", tc.reason, diff)
			}
			class := scrubbedClass{Class: awserr.Classify(got), Code: awserr.Code(got), Describe: awserr.Describe(got),
				Deadline: errors.Is(got, context.DeadlineExceeded), HasSecret: holdsSecret(got)}
			if diff := cmp.Diff(tc.want, class); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	if got := scrubError(s, nil); got != nil {
		t.Errorf("scrubError(nil) = %v", got)
	}
	clean := errors.New("clean")
	if got := scrubError(s, clean); got != clean {
		t.Errorf("an error without the value was replaced by %v", got)
	}
	terminal := scrubError(s, &managed.TerminalError{Reason: "Because", Err: errors.New(testSecret)})
	if te, ok := managed.AsTerminal(terminal); !ok || te.Reason != "Because" || te.Error() != secretMarker {
		t.Errorf("a scrubbed terminal error is found as %+v, %v", te, ok)
	}
	waiting := scrubError(s, fmt.Errorf("wrapped: %w", &managed.WaitingError{Reason: "Later", Message: testSecret}))
	if we, ok := managed.AsWaiting(waiting); !ok || we.Reason != "Later" || we.Message != secretMarker {
		t.Errorf("a scrubbed waiting error is found as %+v, %v", we, ok)
	}
}

// holdsSecret reports whether err's text, its %+v form, or anything errors.As or errors.Unwrap
// finds in it shows testSecret.
func holdsSecret(err error) bool {
	texts := []string{err.Error(), fmt.Sprintf("%+v", err)}
	for e := err; e != nil; e = errors.Unwrap(e) {
		texts = append(texts, e.Error())
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		texts = append(texts, api.Error(), api.ErrorMessage())
	}
	var op *smithy.OperationError
	if errors.As(err, &op) {
		texts = append(texts, op.Error())
	}
	var ne net.Error
	if errors.As(err, &ne) {
		texts = append(texts, ne.Error())
	}
	var attempts *retry.MaxAttemptsError
	if errors.As(err, &attempts) {
		texts = append(texts, attempts.Error())
	}
	for _, t := range texts {
		if strings.Contains(t, testSecret) {
			return true
		}
	}
	return false
}

// echoDriver is a fakeDriver that reads a Secret in each call, as a driver that puts a
// Secret's value into a request does, and whose create fails with an error that echoes the
// value, as Lambda's refusal of a large environment does.
type echoDriver struct {
	*fakeDriver
	kube    client.Reader
	fail    func(value string) error
	warning bool
}

func (d *echoDriver) Create(ctx context.Context, o *testkind.Widget, req managed.Request) error {
	v, _, err := managed.SecretValue(ctx, d.kube, o.Namespace, "spec.token", v1alpha1.SecretKeySelector{Name: "app", Key: "token"})
	if err != nil {
		return err
	}
	if d.warning {
		managed.Warn(ctx, "Noticed", "the request held %s", v)
	}
	return d.fail(string(v))
}

// scrubOutcome is what a reconcile shows of a create whose error echoes a secret value.
type scrubOutcome struct {
	Synced string
	// Message is the Synced condition's message.
	Message string
	Stalled string
	Err     bool
	Class   awserr.Class
	Events  []string
	// Leaks names the places that show the value.
	Leaks []string
}

// TestReconcileScrubsSecrets reconciles a widget whose create fails with an error that echoes
// a Secret's value the pass read: neither the conditions, nor the events, nor the error
// returned to controller-runtime show it, and the error still classifies as the driver's did.
func TestReconcileScrubsSecrets(t *testing.T) {
	measured := func(v string) string {
		b, _ := json.Marshal(map[string]string{"TOKEN": v})
		return "String measured: " + string(b)
	}
	cases := map[string]struct {
		reason  string
		fail    func(v string) error
		warning bool
		want    scrubOutcome
	}{
		"Rejected": {reason: "An AWS refusal that echoes the request as JSON is terminal and scrubbed.",
			fail: func(v string) error {
				return &smithy.GenericAPIError{Code: "InvalidParameterValueException", Message: measured(v)}
			},
			want: scrubOutcome{Synced: "False/" + condition.ReasonAWSRejected, Stalled: "True/" + condition.ReasonAWSRejected,
				Message: `InvalidParameterValueException: String measured: {"TOKEN":"[secret]"}`,
				Events:  []string{"Warning " + condition.ReasonAWSRejected + ` InvalidParameterValueException: String measured: {"TOKEN":"[secret]"}`}}},
		"Retried": {reason: "A retried error is scrubbed in the condition, the event and the returned error, which keeps its class.",
			fail: func(v string) error {
				return &smithy.OperationError{ServiceID: "Widgets", OperationName: "Create",
					Err: &smithy.GenericAPIError{Code: "ThrottlingException", Message: "slow down for " + v}}
			},
			want: scrubOutcome{Synced: "False/Throttled", Message: "Widgets Create: ThrottlingException: slow down for [secret]",
				Err: true, Class: awserr.ClassThrottling}},
		"Denied": {reason: "Access denied keeps its class and reports the scrubbed text.",
			fail: func(v string) error { return &smithy.GenericAPIError{Code: "AccessDenied", Message: "not for " + v} },
			want: scrubOutcome{Synced: "False/AccessDenied", Message: "AccessDenied: not for [secret]", Err: true, Class: awserr.ClassAccessDenied,
				Events: []string{"Warning AccessDenied AccessDenied: not for [secret]"}}},
		"Terminal": {reason: "A driver's terminal error that names the value is scrubbed.",
			fail: func(v string) error { return managed.Terminal(condition.ReasonInvalidSpec, "the token %q is wrong", v) },
			want: scrubOutcome{Synced: "False/InvalidSpec", Stalled: "True/InvalidSpec", Message: `the token "[secret]" is wrong`,
				Events: []string{`Warning InvalidSpec the token "[secret]" is wrong`}}},
		"Waiting": {reason: "A driver's waiting message that names the value is scrubbed.",
			fail: func(v string) error { return managed.Waiting(condition.ReasonReferenceNotReady, "waiting with %s", v) },
			want: scrubOutcome{Synced: "False/ReferenceNotReady", Message: "waiting with [secret]"}},
		"Warning": {reason: "An event a driver emits through the event sink is scrubbed.", warning: true,
			fail: func(v string) error {
				return &smithy.GenericAPIError{Code: "InvalidParameterValueException", Message: "no"}
			},
			want: scrubOutcome{Synced: "False/" + condition.ReasonAWSRejected, Stalled: "True/" + condition.ReasonAWSRejected, Message: "InvalidParameterValueException: no",
				Events: []string{"Warning Noticed the request held [secret]", "Warning " + condition.ReasonAWSRejected + " InvalidParameterValueException: no"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := reconcileEcho(t, tc.fail, tc.warning)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// reconcileEcho reconciles a new widget once with an echoDriver whose create fails with
// fail(value), and reports what the reconcile shows.
func reconcileEcho(t *testing.T, fail func(string) error, warning bool) scrubOutcome {
	t.Helper()
	ctx := context.Background()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme, testkind.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	w := widget()
	prov := &v1alpha1.AWSProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "aws", UID: "p-uid", Generation: 1},
		Spec: v1alpha1.AWSProviderSpec{Region: "us-east-1", Endpoint: "http://127.0.0.1:1",
			AccessKeyIDRef:     &v1alpha1.SecretKeySelector{Name: "creds", Key: "id"},
			SecretAccessKeyRef: &v1alpha1.SecretKeySelector{Name: "creds", Key: "secret"}},
		Status: v1alpha1.AWSProviderStatus{Ready: true, Conditions: []metav1.Condition{{
			Type: "Ready", Status: metav1.ConditionTrue, Reason: "CredentialsValid", ObservedGeneration: 1, LastTransitionTime: metav1.Time{Time: testNow}}}},
	}
	creds := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "creds"},
		Data: map[string][]byte{"id": []byte("AKIDTEST"), "secret": []byte("s3cr3t")}}
	app := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "app"}, Data: map[string][]byte{"token": []byte(testSecret)}}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(w, prov, creds, app).
		WithStatusSubresource(&testkind.Widget{}, &v1alpha1.AWSProvider{}).Build()
	cl := newCloud()
	kind := widgetKind(cl, nil)
	kind.Connect = func(_ *provider.Session, kube client.Reader, _ *testkind.Widget) managed.Driver[*testkind.Widget, widgetState] {
		return &echoDriver{fakeDriver: &fakeDriver{c: cl}, kube: kube, fail: fail, warning: warning}
	}
	rec := events.NewFakeRecorder(100)
	r := NewReconciler(kind, c, c, &provider.Resolver{Client: c, APIReader: c}, rec, "", 1, testOptions)
	_, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "team", Name: "w"}})

	got := scrubOutcome{Err: err != nil}
	if err != nil {
		got.Class = awserr.Classify(err)
		if holdsSecret(err) {
			got.Leaks = append(got.Leaks, "returned error")
		}
	}
	close(rec.Events)
	for e := range rec.Events {
		got.Events = append(got.Events, e)
		if strings.Contains(e, testSecret) {
			got.Leaks = append(got.Leaks, "event "+e)
		}
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "team", Name: "w"}, w); err != nil {
		t.Fatal(err)
	}
	got.Synced = condOf(w.Status.Conditions, condition.TypeSynced)
	got.Stalled = condOf(w.Status.Conditions, condition.TypeStalled)
	for _, cond := range w.Status.Conditions {
		if strings.Contains(cond.Message, testSecret) {
			got.Leaks = append(got.Leaks, "condition "+cond.Type)
		}
	}
	if c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeSynced); c != nil {
		got.Message = c.Message
	}
	return got
}
