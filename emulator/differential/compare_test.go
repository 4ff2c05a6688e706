package differential

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/smithy-go"
)

// outcome is what one step of a scenario observed: "ok" or the error code, and key fields.
type outcome struct {
	Result string
	Fields map[string]string
}

func (o outcome) String() string {
	keys := make([]string, 0, len(o.Fields))
	for k := range o.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(o.Result)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, o.Fields[k])
	}
	return b.String()
}

// observe turns a call's error and fields into an outcome.
func observe(err error, fields map[string]string) outcome {
	if err == nil {
		return outcome{Result: "ok", Fields: fields}
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return outcome{Result: apiErr.ErrorCode()}
	}
	return outcome{Result: "transport: " + err.Error()}
}

// step is one call of a scenario, run against one side's clients C.
type step[C any] struct {
	name string
	run  func(c C) outcome
}

// compare runs every step on the emulator's clients and on the peer's, and reports the
// differences that are not known.
func compare[C any](t *testing.T, emu, peer C, peerName string, steps []step[C], known map[string]string) {
	t.Helper()
	for _, s := range steps {
		want, got := s.run(emu), s.run(peer)
		if want.String() == got.String() {
			continue
		}
		if why, ok := known[s.name]; ok {
			t.Logf("%s: known difference (%s): emulator %q, %s %q", s.name, why, want, peerName, got)
			continue
		}
		t.Errorf("%s: emulator %q, %s %q", s.name, want, peerName, got)
	}
}
