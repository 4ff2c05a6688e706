package refdocs

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// CommonPage is the page, relative to the repository's root, whose "common-fields" block
// documents the fields every kind shares.
const CommonPage = "docs/reconciling.md"

// commonAnchor is the heading of CommonPage that holds the common fields.
const commonAnchor = "#common-fields"

// Family is one operator family and the CRDs of its kinds, in the order they are documented.
type Family struct {
	// Name is the family's name, which names its page.
	Name string
	// CRDs are the CRDs of the family's kinds.
	CRDs []*apiextensionsv1.CustomResourceDefinition
}

// Block is the generated text of one marked block of one page.
type Block struct {
	// Page is the page's path relative to the repository's root.
	Page string
	// Name names the block's markers.
	Name string
	// Body is the block's text.
	Body string
}

// FamilyPage returns the path of a family's reference page relative to the repository's root.
func FamilyPage(family string) string {
	return "docs/families/" + family + ".md"
}

// Blocks returns every generated block: the common fields on CommonPage, and each family's
// field reference on its page.
func Blocks(families []Family) ([]Block, error) {
	if len(families) == 0 || len(families[0].CRDs) == 0 {
		return nil, errors.New("no family with kinds to document")
	}
	common, err := CommonSection(families[0].CRDs[0])
	if err != nil {
		return nil, fmt.Errorf("render the common fields: %w", err)
	}
	blocks := []Block{{Page: CommonPage, Name: "common-fields", Body: common}}
	// Family pages sit one folder below CommonPage's.
	link := "../" + path.Base(CommonPage) + commonAnchor
	for _, f := range families {
		sections := make([]string, 0, len(f.CRDs))
		for _, crd := range f.CRDs {
			s, err := KindSection(crd, link)
			if err != nil {
				return nil, fmt.Errorf("render the %s family: %w", f.Name, err)
			}
			sections = append(sections, s)
		}
		blocks = append(blocks, Block{Page: FamilyPage(f.Name), Name: "fields", Body: strings.Join(sections, "\n")})
	}
	return blocks, nil
}

// Apply splices blocks into their pages under root and returns the pages whose text changed;
// with write false it only compares, to tell which pages are stale.
func Apply(root string, blocks []Block, write bool) ([]string, error) {
	before, after := map[string]string{}, map[string]string{}
	var order []string
	for _, b := range blocks {
		if _, ok := before[b.Page]; !ok {
			raw, err := os.ReadFile(filepath.Join(root, b.Page))
			if err != nil {
				return nil, fmt.Errorf("read the page of block %s: %w", b.Name, err)
			}
			before[b.Page], after[b.Page] = string(raw), string(raw)
			order = append(order, b.Page)
		}
		next, err := Splice(after[b.Page], b.Name, b.Body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Page, err)
		}
		after[b.Page] = next
	}
	var changed []string
	for _, page := range order {
		if before[page] == after[page] {
			continue
		}
		changed = append(changed, page)
		if write {
			if err := os.WriteFile(filepath.Join(root, page), []byte(after[page]), 0o644); err != nil {
				return nil, fmt.Errorf("write %s: %w", page, err)
			}
		}
	}
	return changed, nil
}
