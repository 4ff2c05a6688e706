package testenv

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestControlPlaneModule checks that the control plane's build requires the project's
// dependency versions, so that it shares their compiled packages with the tests, but neither
// the project's own modules nor another version of a k8s.io module Kubernetes pins.
func TestControlPlaneModule(t *testing.T) {
	info := &debug.BuildInfo{Deps: []*debug.Module{
		{Path: "golang.org/x/net", Version: "v0.59.0"},
		{Path: "k8s.io/client-go", Version: "v0.37.0"},
		{Path: "k8s.io/klog/v2", Version: "v2.130.1"},
		{Path: "github.com/runner-codes/infra-operator/shared", Version: "v0.0.0",
			Replace: &debug.Module{Path: "../shared"}},
	}}
	mod := controlPlaneModule(projectRequirements(info))
	for _, want := range []string{
		"\tk8s.io/kubernetes v" + KubernetesVersion + "\n",
		"\tgo.etcd.io/etcd/server/v3 v" + EtcdVersion + "\n",
		"\tgolang.org/x/net v0.59.0\n",
		"\tk8s.io/klog/v2 v2.130.1\n",
		"replace k8s.io/client-go => k8s.io/client-go v0." + strings.SplitN(KubernetesVersion, ".", 2)[1] + "\n",
	} {
		if !strings.Contains(mod, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, mod)
		}
	}
	for _, unwanted := range []string{"k8s.io/client-go v0.37.0", "infra-operator"} {
		if strings.Contains(mod, unwanted) {
			t.Errorf("go.mod has %q:\n%s", unwanted, mod)
		}
	}
	if projectRequirements(nil) != nil {
		t.Error("a binary without build information requires modules")
	}
}
