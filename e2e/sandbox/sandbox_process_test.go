package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/cli"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// asInfractl is the environment variable that makes the test binary run as infractl, so that a
// test can run `make sandbox` with it in place of bin/infractl (no second build of the CLI).
const asInfractl = "INFRACTL_TEST_AS_CLI"

// TestMain runs the tests (with control planes shared between them, see testenv.Main), or, with
// asInfractl set, infractl itself as cmd/infractl does. The tests' own controller-runtime
// clients get a logger that drops everything, as infractl's do.
func TestMain(m *testing.M) {
	if os.Getenv(asInfractl) != "" {
		if err := cli.NewRootCommand().Execute(); err != nil {
			fmt.Fprintln(os.Stderr, "infractl:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	ctrl.SetLogger(logr.Discard())
	testenv.Main(m)
}

// makeSandbox is `make sandbox` run as a user runs it, in a process group of its own as a
// terminal's foreground job is, with the test binary as infractl.
type makeSandbox struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan struct{}
	err    error // make's result, once exited is closed
	// Command is the sandbox's command line as make echoes it.
	Command string
}

// startMakeSandbox starts `make sandbox` at the repository's root with SANDBOX_FLAGS flags.
func startMakeSandbox(t *testing.T, flags string) *makeSandbox {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// -o infractl: the recipe that builds bin/infractl is skipped; INFRACTL is this binary.
	cmd := exec.Command("make", "--no-print-directory", "-C", root, "-o", "infractl", "sandbox", "INFRACTL="+self, "SANDBOX_FLAGS="+flags)
	cmd.Env = append(os.Environ(), asInfractl+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s := &makeSandbox{cmd: cmd, out: &syncBuffer{}, exited: make(chan struct{}), Command: self + " sandbox " + flags}
	cmd.Stdout, cmd.Stderr = s.out, s.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start make sandbox: %v", err)
	}
	go func() { s.err = cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() {
		select {
		case <-s.exited:
		default:
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
		}
	})
	return s
}

// interrupt sends SIGINT to make's process group, as Ctrl-C in a terminal does, and waits for
// make to end. A clean end is make ending without an error of its own: with status 0, or killed
// by the SIGINT it re-raises once its recipe ended well (GNU make does so, so that the shell
// knows it was interrupted; it prints nothing then).
func (s *makeSandbox) interrupt(t *testing.T, within time.Duration) {
	t.Helper()
	if err := syscall.Kill(-s.cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatalf("send SIGINT to make's process group: %v", err)
	}
	select {
	case <-s.exited:
		var exit *exec.ExitError
		if errors.As(s.err, &exit) {
			if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
				t.Errorf("make sandbox ended with %v after Ctrl-C, want a clean end:\n%s", s.err, s.out.String())
			}
		} else if s.err != nil {
			t.Errorf("make sandbox: %v", s.err)
		}
	case <-time.After(within):
		t.Fatalf("make sandbox did not stop within %s of Ctrl-C:\n%s", within, s.out.String())
	}
}
