package testenv

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Binary is an operator binary built from a package and running for a test.
type Binary struct {
	t    testing.TB
	cmd  *exec.Cmd
	logs *lockedBuffer
	done chan error
}

// RunBinary builds the main package in dir (for example ".") and starts it with args. The
// process is killed when the test ends, if it is still running. The binary is linked without
// DWARF and symbol tables, which halves the link; its panics still name functions and lines.
// It is built with the go command's flags of the test's environment (make test sets
// GOFLAGS=-trimpath) and written to the project's cache (see binaryPath), where go build finds
// it up to date and does not link it again, as it would every time into a new directory.
func RunBinary(t testing.TB, dir string, args ...string) *Binary {
	t.Helper()
	bin, err := binaryPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, ".")
	build.Dir = dir
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build %s: %v", dir, err)
	}
	b := &Binary{t: t, cmd: exec.Command(bin, args...), logs: &lockedBuffer{}, done: make(chan error, 1)}
	b.cmd.Stdout, b.cmd.Stderr = b.logs, b.logs
	if err := b.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	go func() { b.done <- b.cmd.Wait() }()
	t.Cleanup(func() {
		if b.cmd.ProcessState == nil {
			_ = b.cmd.Process.Kill()
		}
	})
	return b
}

// binaryPath returns where RunBinary writes the binary of the main package in dir: a path in
// the project's cache named after dir's path inside the repository, so that checkouts of the
// repository share it (a -trimpath build does not depend on the checkout's directory; any other
// build is linked again when another checkout wrote the file last).
func binaryPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find the directory of %s: %w", dir, err)
	}
	root, err := repoRoot(abs)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", fmt.Errorf("find %s inside the repository: %w", abs, err)
	}
	cache, err := cacheRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "test-bin", rel, filepath.Base(abs)), nil
}

// PID returns the process id of the running binary.
func (b *Binary) PID() int { return b.cmd.Process.Pid }

// Logs returns what the binary printed so far.
func (b *Binary) Logs() string { return b.logs.String() }

// WaitOK polls url until it answers 200, failing the test early if the binary exits.
func (b *Binary) WaitOK(url string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-b.done:
			b.t.Fatalf("the binary exited early (%v)\nlogs:\n%s", err, b.Logs())
		default:
		}
		resp, err := http.Get(url)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	b.t.Fatalf("%s never answered 200\nlogs:\n%s", url, b.Logs())
}

// Stop sends SIGTERM and fails the test unless the binary exits cleanly within 30 seconds.
func (b *Binary) Stop() {
	b.t.Helper()
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.t.Fatal(err)
	}
	select {
	case err := <-b.done:
		if err != nil {
			b.t.Fatalf("exit after SIGTERM: %v\nlogs:\n%s", err, b.Logs())
		}
	case <-time.After(30 * time.Second):
		b.t.Fatalf("still running 30s after SIGTERM\nlogs:\n%s", b.Logs())
	}
}

// lockedBuffer collects the binary's output; exec writes it while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Get returns the body of a GET of url, failing the test unless it answers 200.
func Get(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("get %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("get %s: status %d, %v", url, resp.StatusCode, err)
	}
	return string(b)
}

// OperatorDir returns the directory of the main package of family's operator binary
// (operators/<family>/cmd/<family>-operator), found from the repository's root.
func OperatorDir(t testing.TB, family string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("find the repository's root: %v", err)
	}
	root, err := repoRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "operators", family, "cmd", family+"-operator")
}

// repoRoot returns the repository's root: the nearest directory at or above dir that holds
// go.work.
func repoRoot(dir string) (string, error) {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("find the repository's root: no go.work above %s", dir)
		}
		dir = parent
	}
}
