package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/runner-codes/infra-operator/cli/internal/kube"
	"github.com/runner-codes/infra-operator/cli/sandbox"
)

// sandboxObjects returns the objects the sandbox applies for f: the examples of f.examples,
// placeholders replaced (one line per replacement on out), then the --apply manifests as they
// are.
func sandboxObjects(sb *sandbox.Sandbox, f sandboxFlags, out io.Writer) ([]*unstructured.Unstructured, error) {
	var objs []*unstructured.Unstructured
	if f.examples != "" {
		steps, err := sandbox.PlanExamples(f.examples, sb.Baseline, sb.EmulatorURL)
		if err != nil {
			return nil, err
		}
		for _, s := range steps {
			for _, n := range s.Notes {
				fmt.Fprintf(out, "sandbox: %s: %s\n", s.File, n)
			}
			objs = append(objs, s.Objects...)
		}
	}
	more, err := kube.ReadManifests(f.apply)
	if err != nil {
		return nil, err
	}
	return append(objs, more...), nil
}

// applyAndFollow applies the sandbox's objects and prints their progress until they settle,
// then one line that says whether every one is Ready, and which failed.
func applyAndFollow(ctx context.Context, sb *sandbox.Sandbox, f sandboxFlags, out io.Writer) error {
	objs, err := sandboxObjects(sb, f, out)
	if err != nil {
		return err
	}
	c, err := newClient(sb.Config)
	if err != nil {
		return err
	}
	if err := kube.Apply(ctx, c, objs, "default"); err != nil {
		return err
	}
	fmt.Fprintf(out, "sandbox: applied %d objects; following them until each is Ready or failed\n", len(objs))
	stalled, blocked, err := followProgress(ctx, c, objs, out, 500*time.Millisecond)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "sandbox: "+outcome(stalled, blocked))
	return nil
}

// outcome says in one line how the applied resources settled: stalled and blocked name those
// that failed and those that wait for one that did.
func outcome(stalled, blocked []string) string {
	if len(stalled) == 0 && len(blocked) == 0 {
		return "every resource is Ready"
	}
	return fmt.Sprintf("%d of the resources failed (%s) and %d wait for one that did (see the reasons above); fix their specs and apply again",
		len(stalled), strings.Join(stalled, ", "), len(blocked))
}
