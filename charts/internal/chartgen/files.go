package chartgen

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
)

// Write replaces the owned paths under dir (the charts directory) with files, so that no
// generated file outlives its source.
func Write(dir string, families []string, files map[string][]byte) error {
	for _, p := range Owned(families) {
		if err := os.RemoveAll(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			return fmt.Errorf("remove %s: %w", p, err)
		}
	}
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("create the directory of %s: %w", p, err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	return nil
}

// Stale returns the generated paths that are missing under dir or differ from files, and the
// files in owned paths that Generate no longer produces, sorted.
func Stale(dir string, families []string, files map[string][]byte) ([]string, error) {
	var stale []string
	seen := map[string]bool{}
	fsys := os.DirFS(dir)
	for _, owned := range Owned(families) {
		err := fs.WalkDir(fsys, owned, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			seen[p] = true
			want, ok := files[p]
			if !ok {
				stale = append(stale, p+" (no longer generated)")
				return nil
			}
			got, err := fs.ReadFile(fsys, p)
			if err != nil {
				return fmt.Errorf("read %s: %w", p, err)
			}
			if !bytes.Equal(got, want) {
				stale = append(stale, p+" (differs)")
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("compare %s: %w", path.Join(dir, owned), err)
		}
	}
	for p := range files {
		if !seen[p] {
			stale = append(stale, p+" (missing)")
		}
	}
	sort.Strings(stale)
	return stale, nil
}
