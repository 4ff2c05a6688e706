package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// outputsDocs returns the documents where a kind's outputs line (outputsLine) may be, README.md
// and every Markdown page under docs/ of the repository at root, joined into one text: the
// conformance check accepts the line in either place.
func outputsDocs(root string) (string, error) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return "", fmt.Errorf("read the README: %w", err)
	}
	var b strings.Builder
	b.Write(readme)
	err = filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		page, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b.WriteString("\n")
		b.Write(page)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("read the docs pages: %w", err)
	}
	return b.String(), nil
}
