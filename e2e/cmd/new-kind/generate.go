package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// run writes the kind the options name into the repository and prints what is left to w.
// Every file is rendered and every edit made in memory first, so that an error leaves the
// repository as it was.
func run(o options, w io.Writer) error {
	s, err := newSpec(o)
	if err != nil {
		return err
	}
	files, err := s.newFiles()
	if err != nil {
		return err
	}
	edited, benchAdded, err := s.edits()
	if err != nil {
		return err
	}
	var written []string
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("make the directory of %s: %w", path, err)
		}
		if err := writeNew(path, content); err != nil {
			return err
		}
		written = append(written, path)
	}
	for path, content := range edited {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		written = append(written, path)
	}
	for i, path := range written {
		if rel, err := filepath.Rel(s.Root, path); err == nil {
			written[i] = rel
		}
	}
	slices.Sort(written)
	return printSteps(w, stepsData{spec: s, Written: written, BenchAdded: benchAdded})
}

// writeNew writes content into a new file at path, and fails when the file exists.
func writeNew(path string, content []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
