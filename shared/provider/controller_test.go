package provider_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/provider"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

const (
	goodKey    = "AKIDGOODEXAMPLE"
	goodSecret = "good-secret-value"
	account    = "123456789012"
)

// startController runs a manager with the AWSProvider controller as instance until the
// returned stop function is called or the test ends.
func startController(t *testing.T, env *testenv.Env, instance string, interval, grace time.Duration) (stop func()) {
	t.Helper()
	mgr := env.Manager(t)
	ctx, cancel := context.WithCancel(context.Background())
	c := &provider.Controller{
		Client: mgr.GetClient(),
		Resolver: &provider.Resolver{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(),
			LoadOptions: []func(*config.LoadOptions) error{config.WithRetryMaxAttempts(1)}},
		Recorder:      mgr.GetEventRecorder("test-" + instance),
		Instance:      instance,
		Interval:      interval,
		Grace:         grace,
		RetryInterval: time.Second,
	}
	if err := c.SetupWithManager(ctx, mgr); err != nil {
		t.Fatal(err)
	}
	return testenv.Run(t, mgr, ctx, cancel)
}

func getProvider(t *testing.T, env *testenv.Env, ns, name string) *v1alpha1.AWSProvider {
	t.Helper()
	p := &v1alpha1.AWSProvider{}
	if err := env.Client.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// updateProvider applies mutate to the current version of the provider "aws" in ns, retrying
// on conflicts: the provider's controller writes its status and finalizers meanwhile.
func updateProvider(t *testing.T, env *testenv.Env, ns string, mutate func(*v1alpha1.AWSProvider)) {
	t.Helper()
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p := getProvider(t, env, ns, "aws")
		mutate(p)
		return env.Client.Update(context.Background(), p)
	}); err != nil {
		t.Fatal(err)
	}
}

func readyReason(p *v1alpha1.AWSProvider) string {
	for _, c := range p.Status.Conditions {
		if c.Type == condition.TypeReady && c.ObservedGeneration == p.Generation {
			return string(c.Status) + "/" + c.Reason
		}
	}
	return "none"
}

func TestAWSProviderController(t *testing.T) {
	sts := &ststest.Server{Accounts: map[string]string{goodKey: account}}
	env := testenv.Start(t, testenv.Options{AWS: sts})
	startController(t, env, "a", 5*time.Minute, 2*time.Minute)
	ctx := context.Background()

	t.Run("ValidCredentials", func(t *testing.T) {
		ns := env.Namespace(t)
		env.Provider(t, ns, "aws", goodKey, goodSecret)
		testenv.Eventually(t, 20*time.Second, func() string {
			p := getProvider(t, env, ns, "aws")
			if got := readyReason(p); got != "True/CredentialsValid" {
				return "Ready is " + got
			}
			if p.Status.AccountID != account || !strings.Contains(p.Status.CallerIdentity, account) || !p.Status.Ready || p.Status.ValidatedBy != "a" {
				return "status is incomplete"
			}
			return ""
		})
	})

	t.Run("RejectedThenFixed", func(t *testing.T) {
		ns := env.Namespace(t)
		env.Provider(t, ns, "aws", "AKIDWRONGEXAMPLE", "wrong-secret-value")
		var p *v1alpha1.AWSProvider
		testenv.Eventually(t, 20*time.Second, func() string {
			p = getProvider(t, env, ns, "aws")
			if got := readyReason(p); got != "False/CredentialsRejected" {
				return "Ready is " + got
			}
			return ""
		})
		for _, c := range p.Status.Conditions {
			if strings.Contains(c.Message, "AKIDWRONGEXAMPLE") || strings.Contains(c.Message, "wrong-secret-value") {
				t.Errorf("the condition message leaks a credential: %q", c.Message)
			}
		}
		secret := &corev1.Secret{}
		if err := env.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: "aws-credentials"}, secret); err != nil {
			t.Fatal(err)
		}
		secret.Data = map[string][]byte{"access-key-id": []byte(goodKey), "secret-access-key": []byte(goodSecret)}
		if err := env.Client.Update(ctx, secret); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 20*time.Second, func() string {
			if got := readyReason(getProvider(t, env, ns, "aws")); got != "True/CredentialsValid" {
				return "after fixing the Secret, Ready is " + got
			}
			return ""
		})
	})

	t.Run("MissingSecretRecovers", func(t *testing.T) {
		ns := env.Namespace(t)
		p := &v1alpha1.AWSProvider{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "aws"},
			Spec: v1alpha1.AWSProviderSpec{Region: "us-east-1", Endpoint: env.AWSEndpoint,
				AccessKeyIDRef:     &v1alpha1.SecretKeySelector{Name: "later", Key: "id"},
				SecretAccessKeyRef: &v1alpha1.SecretKeySelector{Name: "later", Key: "secret"}},
		}
		if err := env.Client.Create(ctx, p); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 20*time.Second, func() string {
			if got := readyReason(getProvider(t, env, ns, "aws")); got != "False/SecretNotFound" {
				return "Ready is " + got
			}
			return ""
		})
		if err := env.Client.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "later"},
			StringData: map[string]string{"id": goodKey, "secret": goodSecret}}); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 20*time.Second, func() string {
			if got := readyReason(getProvider(t, env, ns, "aws")); got != "True/CredentialsValid" {
				return "after creating the Secret, Ready is " + got
			}
			return ""
		})
	})

	t.Run("RoleAssumedOnTop", func(t *testing.T) {
		ns := env.Namespace(t)
		env.Provider(t, ns, "aws", goodKey, goodSecret)
		updateProvider(t, env, ns, func(p *v1alpha1.AWSProvider) { p.Spec.RoleARN = "arn:aws:iam::210987654321:role/infra" })
		testenv.Eventually(t, 20*time.Second, func() string {
			got := getProvider(t, env, ns, "aws")
			if got.Status.AccountID != "210987654321" || readyReason(got) != "True/CredentialsValid" {
				return "account " + got.Status.AccountID + ", Ready " + readyReason(got)
			}
			// The role session names the provider's namespace, so CloudTrail does.
			if want := "arn:aws:sts::210987654321:assumed-role/infra/infra-operator@" + ns; got.Status.CallerIdentity != want {
				return "caller identity " + got.Status.CallerIdentity + ", want " + want
			}
			return ""
		})
		if sts.Calls("AssumeRole") == 0 {
			t.Error("the role was not assumed through STS AssumeRole")
		}
	})
}

func TestAWSProviderSingleValidator(t *testing.T) {
	sts := &ststest.Server{Accounts: map[string]string{goodKey: account}}
	env := testenv.Start(t, testenv.Options{AWS: sts})
	// Grace is as long as the interval so that an owner slowed by the race detector on a busy
	// two-core machine is not mistaken for a dead one.
	interval, grace := 2*time.Second, 2*time.Second
	stopA := startController(t, env, "a", interval, grace)
	stopB := startController(t, env, "b", interval, grace)
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", goodKey, goodSecret)

	var owner string
	testenv.Eventually(t, 20*time.Second, func() string {
		p := getProvider(t, env, ns, "aws")
		if readyReason(p) != "True/CredentialsValid" {
			return "Ready is " + readyReason(p)
		}
		owner = p.Status.ValidatedBy
		return ""
	})
	// Over two revalidation intervals, only the owner validates and writes.
	before := sts.Calls("GetCallerIdentity")
	deadline := time.Now().Add(2*interval + 500*time.Millisecond)
	for time.Now().Before(deadline) {
		if got := getProvider(t, env, ns, "aws").Status.ValidatedBy; got != owner {
			t.Fatalf("validatedBy flapped from %s to %s", owner, got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if calls := sts.Calls("GetCallerIdentity") - before; calls < 1 || calls > 3 {
		t.Errorf("GetCallerIdentity was called %d times in two intervals; want one call per interval from one instance (1 to 3)", calls)
	}
	// When the owner stops, the other takes over after interval+grace.
	successor := "b"
	if owner == "a" {
		stopA()
	} else {
		successor = "a"
		stopB()
	}
	testenv.Eventually(t, 3*(interval+grace), func() string {
		if got := getProvider(t, env, ns, "aws").Status.ValidatedBy; got != successor {
			return "validatedBy is still " + got
		}
		return ""
	})
}
