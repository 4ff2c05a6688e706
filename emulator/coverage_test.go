package emulator_test

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"

	"github.com/runner-codes/infra-operator/emulator"
)

// started records every emulator the tests start, so that TestMain can check that every
// implemented operation answered at least one real SDK call successfully.
var (
	startedMu sync.Mutex
	started   []*emulator.Server
)

func record(e *emulator.Server) {
	startedMu.Lock()
	defer startedMu.Unlock()
	started = append(started, e)
}

// TestMain runs the tests and then, when the whole suite ran (no -run filter), fails if an
// implemented operation never succeeded through the real aws-sdk-go-v2 client.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && !filtered() {
		if missing := unexercised(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: these operations never succeeded through the SDK in any test: %v\n", missing)
			code = 1
		}
	}
	os.Exit(code)
}

// filtered reports whether the run was narrowed with -run, when coverage cannot be judged.
func filtered() bool {
	f := flag.Lookup("test.run")
	return f != nil && f.Value.String() != ""
}

// unexercised returns "Service.Operation" for every implemented operation without a success.
func unexercised() []string {
	startedMu.Lock()
	defer startedMu.Unlock()
	succeeded := map[string]bool{}
	for _, e := range started {
		for svc, ops := range e.Calls.Snapshot() {
			for op, outcomes := range ops {
				if outcomes["success"] > 0 {
					succeeded[svc+"."+op] = true
				}
			}
		}
	}
	var missing []string
	for _, svc := range emulator.New(emulator.Options{}).Services() {
		for op := range svc.Operations {
			if !succeeded[svc.ID+"."+op] {
				missing = append(missing, svc.ID+"."+op)
			}
		}
	}
	sort.Strings(missing)
	return missing
}
