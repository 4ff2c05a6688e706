package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// checkout writes a repository root (a go.work) with the main package directory rel under a new
// temporary directory, and returns that package's directory.
func checkout(t *testing.T, rel string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.work"), []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, rel)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBinaryPath checks that two checkouts of the repository share the path of one package's
// binary, that two packages never share one, and that a directory outside any repository is
// refused.
func TestBinaryPath(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("INFRA_OPERATOR_CACHE", cache)
	rel := filepath.Join("operators", "networking", "cmd", "networking-operator")

	first, err := binaryPath(checkout(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(cache, "test-bin", rel, "networking-operator")
	if first != want {
		t.Errorf("binary path %s, want %s", first, want)
	}
	second, err := binaryPath(checkout(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	if second != first {
		t.Errorf("two checkouts write %s and %s, want one path", first, second)
	}
	other, err := binaryPath(checkout(t, filepath.Join("operators", "data", "cmd", "networking-operator")))
	if err != nil {
		t.Fatal(err)
	}
	if other == first {
		t.Errorf("two packages share the binary path %s", first)
	}
	if p, err := binaryPath(t.TempDir()); err == nil {
		t.Errorf("a directory outside any repository got the binary path %s, want an error", p)
	}
}
