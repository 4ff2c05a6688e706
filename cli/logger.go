package cli

import (
	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/shared/operator"
)

// setLogger gives controller-runtime and client-go (klog) their logger in infractl's process:
// none by default, for the commands print their own progress and the operators the sandbox
// runs report what needs a user's attention as conditions and events; with verbose (the
// sandbox's --verbose), the operators' logs in the console format on standard error.
func setLogger(verbose bool) {
	l := logr.Discard()
	if verbose {
		l = operator.NewLogger("info", "console")
	}
	ctrl.SetLogger(l)
	klog.SetLogger(l)
}
