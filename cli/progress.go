package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/cli/internal/kube"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// followProgress prints a line whenever an applied infra-operator object changes state, until
// every one is Ready, stalled, or blocked by a stalled reference (or ctx ends), and returns
// those stalled and those blocked, as "Kind namespace/name".
func followProgress(ctx context.Context, c client.Reader, objs []*unstructured.Unstructured, out io.Writer, every time.Duration) (stalled, blocked []string, err error) {
	var watched []*unstructured.Unstructured
	for _, u := range objs {
		if u.GroupVersionKind().Group == v1alpha1.Group {
			watched = append(watched, u)
		}
	}
	last := map[string]string{}
	for {
		settled := 0
		stalled, blocked = nil, nil
		for _, u := range watched {
			cur := &unstructured.Unstructured{}
			cur.SetGroupVersionKind(u.GroupVersionKind())
			if err := c.Get(ctx, client.ObjectKeyFromObject(u), cur); err != nil {
				return nil, nil, fmt.Errorf("read %s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
			}
			s := kube.StateOf(cur, time.Now())
			line := progressLine(s)
			id := s.Kind + " " + s.Namespace + "/" + s.Name
			if last[id] != line {
				fmt.Fprintf(out, "  %-40s %s\n", id, line)
				last[id] = line
			}
			if s.Settled() {
				settled++
			}
			switch {
			case s.Stalled:
				stalled = append(stalled, id)
			case s.Blocked:
				blocked = append(blocked, id)
			}
		}
		if settled == len(watched) {
			return stalled, blocked, nil
		}
		select {
		case <-ctx.Done():
			return stalled, blocked, ctx.Err()
		case <-time.After(every):
		}
	}
}

// progressLine describes a state in a few words.
func progressLine(s kube.State) string {
	switch {
	case s.Ready == "True":
		if s.ID != "" {
			return "Ready (" + s.ID + ")"
		}
		return "Ready"
	case s.Stalled:
		return "FAILED: " + s.Reason
	case s.Blocked:
		return "blocked: " + s.Reason
	default:
		return "waiting: " + s.Reason
	}
}
