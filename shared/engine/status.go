package engine

import (
	"encoding/json"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// statusPatch returns a JSON merge patch that turns old's status into cur's, and whether they
// differ at all.
func statusPatch(old, cur runtime.Object) ([]byte, bool, error) {
	oldStatus, err := statusJSON(old)
	if err != nil {
		return nil, false, err
	}
	curStatus, err := statusJSON(cur)
	if err != nil {
		return nil, false, err
	}
	diff, err := jsonpatch.CreateMergePatch(oldStatus, curStatus)
	if err != nil {
		return nil, false, fmt.Errorf("diff status: %w", err)
	}
	if string(diff) == "{}" {
		return nil, false, nil
	}
	return []byte(`{"status":` + string(diff) + `}`), true, nil
}

// statusJSON returns the JSON of o's status stanza ("{}" when it has none).
func statusJSON(o runtime.Object) ([]byte, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil, fmt.Errorf("convert %T: %w", o, err)
	}
	status, ok := u["status"]
	if !ok || status == nil {
		return []byte("{}"), nil
	}
	b, err := json.Marshal(status)
	if err != nil {
		return nil, fmt.Errorf("encode status: %w", err)
	}
	return b, nil
}

// restoreStatus puts orig's status back into cur: what a driver's Observe filled in from a
// resource the object may not read (another tenant's) is not written. cur's conditions, set by
// the engine, are kept.
func restoreStatus[O v1alpha1.Managed](orig, cur O) error {
	conditions := cur.GetManagedStatus().Conditions
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cur)
	if err != nil {
		return fmt.Errorf("convert %T: %w", cur, err)
	}
	o, err := runtime.DefaultUnstructuredConverter.ToUnstructured(orig)
	if err != nil {
		return fmt.Errorf("convert %T: %w", orig, err)
	}
	u["status"] = o["status"]
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, cur); err != nil {
		return fmt.Errorf("restore the status of %T: %w", cur, err)
	}
	cur.GetManagedStatus().Conditions = conditions
	return nil
}
