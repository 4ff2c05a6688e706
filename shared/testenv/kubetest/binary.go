package kubetest

import (
	"context"
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// BinaryCheck describes an end-to-end run of a family's operator binary.
type BinaryCheck struct {
	// Family is the family the binary runs: its CRDs and kinds are installed.
	Family operator.Family
	// AWS serves the AWS endpoint (the emulator).
	AWS http.Handler
	// Object returns the resource to create in namespace ns; its providerRef names "aws".
	Object func(ns string) shared.Managed
	// Metrics are lines /metrics must hold once the resource is Ready.
	Metrics []string
	// Setup, when set, prepares namespace ns before the object is created (the Secret its
	// spec names, for example).
	Setup func(t *testing.T, env *testenv.Env, ns string)
	// Then, when set, runs once the object is Ready and the metrics are checked (a change
	// the binary must carry out, for example).
	Then func(t *testing.T, env *testenv.Env, ns string)
	// NeverLogged are strings (secret values) the binary's logs, written at debug level, must
	// never hold.
	NeverLogged []string
}

// RunBinaryCheck builds the family's operator binary (see testenv.OperatorDir) and runs it, as
// a Deployment would, against a real control plane and the AWS endpoint: the object becomes
// Ready, /metrics holds the expected lines, and the binary exits cleanly on SIGTERM, having
// logged none of the strings it must never log.
func RunBinaryCheck(t *testing.T, check BinaryCheck) {
	t.Helper()
	env := testenv.Start(t, testenv.Options{CRDs: []fs.FS{check.Family.CRDs}, AddToScheme: check.Family.AddToScheme, AWS: check.AWS})
	metrics, probes := testenv.FreeAddress(t), testenv.FreeAddress(t)
	bin := testenv.RunBinary(t, testenv.OperatorDir(t, check.Family.Name),
		"--kubeconfig", env.Kubeconfig(t),
		"--metrics-bind-address", metrics,
		"--metrics-secure=false",
		"--health-probe-bind-address", probes,
		"--wait-interval", "500ms",
		"--allow-endpoint-override",
		"--allow-loopback-endpoints",
		"--log-format", "json",
		"--log-level", "debug")
	bin.WaitOK("http://" + probes + "/readyz")

	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDBINARY", "binary-secret")
	if check.Setup != nil {
		check.Setup(t, env, ns)
	}
	o := check.Object(ns)
	if err := env.Client.Create(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 60*time.Second, func() string {
		if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(o), o); err != nil {
			return err.Error()
		}
		if conds := o.GetManagedStatus().Conditions; !meta.IsStatusConditionTrue(conds, "Ready") {
			return "not Ready: " + strings.Join(ConditionTexts(conds), "; ") + "\nlogs:\n" + bin.Logs()
		}
		return ""
	})
	body := testenv.Get(t, "http://"+metrics+"/metrics")
	for _, want := range check.Metrics {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if check.Then != nil {
		check.Then(t, env, ns)
	}
	bin.Stop()
	logs := bin.Logs()
	if len(check.NeverLogged) > 0 && !strings.Contains(logs, o.GetName()) {
		t.Errorf("the binary's logs never name %s: looking for secret values in them proves nothing\n%s", o.GetName(), logs)
	}
	for i, secret := range check.NeverLogged {
		if strings.Contains(logs, secret) {
			t.Errorf("the binary logged secret value %d of NeverLogged", i)
		}
	}
}
