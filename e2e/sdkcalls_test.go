package e2e

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// sdkServicePrefix is the prefix of the import paths of the aws-sdk-go-v2 service packages.
const sdkServicePrefix = "github.com/aws/aws-sdk-go-v2/service/"

// notDriverCode are the repository's packages whose AWS calls are not a driver's, though a
// driver uses them: the provider's session validates credentials with STS for every kind.
var notDriverCode = []string{repoModule + "shared/provider", repoModule + "shared/engine", repoModule + "shared/operator"}

// sdkOperation is one operation of an AWS SDK service.
type sdkOperation struct {
	// Package is the import path of the SDK package, for example
	// "github.com/aws/aws-sdk-go-v2/service/ec2".
	Package string
	// Name is the operation's name, for example "AllocateAddress".
	Name string
}

// String returns the operation as service.Operation, for example ec2.AllocateAddress.
func (o sdkOperation) String() string { return path.Base(o.Package) + "." + o.Name }

// sdkCalls finds, in the Go source of the repository at root, the SDK operations a package
// calls. Every SDK call takes the operation's input struct (<svc>.<Operation>Input), so an
// operation is called where its input type is named: anywhere in the package itself, and in
// the functions (and the methods of the types) of the repository's other packages that it uses,
// followed from use to use (the driver kit's ec2util.AllocateAddress, for example). It reads
// the source only: no type checking, and so no build of the packages.
type sdkCalls struct {
	root     string
	fset     *token.FileSet
	packages map[string]*parsedPackage
	followed map[string]bool
	found    map[sdkOperation]bool
}

// parsedPackage is one package's parsed non-test files.
type parsedPackage struct {
	path  string
	files []*ast.File
}

// newSDKCalls returns a finder that reads the repository at root.
func newSDKCalls(root string) *sdkCalls {
	return &sdkCalls{root: root, fset: token.NewFileSet(), packages: map[string]*parsedPackage{}}
}

// Operations returns the SDK operations the package pkg (an import path of the repository)
// calls, sorted.
func (c *sdkCalls) Operations(pkg string) ([]sdkOperation, error) {
	c.followed, c.found = map[string]bool{}, map[sdkOperation]bool{}
	p, err := c.load(pkg)
	if err != nil {
		return nil, err
	}
	for _, f := range p.files {
		if err := c.scan(p, f, f); err != nil {
			return nil, err
		}
	}
	ops := make([]sdkOperation, 0, len(c.found))
	for op := range c.found {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(a, b sdkOperation) int { return strings.Compare(a.String(), b.String()) })
	return ops, nil
}

// load parses the non-test files of the repository's package pkg, once.
func (c *sdkCalls) load(pkg string) (*parsedPackage, error) {
	if p, ok := c.packages[pkg]; ok {
		return p, nil
	}
	dir := filepath.Join(c.root, filepath.FromSlash(strings.TrimPrefix(pkg, repoModule)))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read package %s: %w", pkg, err)
	}
	p := &parsedPackage{path: pkg}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(c.fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parse package %s: %w", pkg, err)
		}
		p.files = append(p.files, f)
	}
	c.packages[pkg] = p
	return p, nil
}

// scan records the operations whose input types node names, and follows the names it uses of
// the repository's other packages and, within p, the functions it calls. file is the file of
// node, whose imports give the packages' names.
func (c *sdkCalls) scan(p *parsedPackage, file *ast.File, node ast.Node) error {
	imports := importNames(file)
	var err error
	ast.Inspect(node, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch x := n.(type) {
		case *ast.SelectorExpr:
			pkgIdent, ok := x.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch imported := imports[pkgIdent.Name]; {
			case isSDKService(imported) && strings.HasSuffix(x.Sel.Name, "Input"):
				c.found[sdkOperation{Package: imported, Name: strings.TrimSuffix(x.Sel.Name, "Input")}] = true
			case strings.HasPrefix(imported, repoModule) && !slices.Contains(notDriverCode, imported):
				err = c.follow(imported, x.Sel.Name)
			case imported == "" && p.path != "":
				// A method call on a value of p: follow p's methods of that name.
				err = c.follow(p.path, x.Sel.Name)
			}
		case *ast.CallExpr:
			if fn, ok := x.Fun.(*ast.Ident); ok {
				err = c.follow(p.path, fn.Name)
			}
		}
		return true
	})
	return err
}

// follow scans, once, the declarations of package pkg called name: its function or the methods
// so called, and for a type every method of the type.
func (c *sdkCalls) follow(pkg, name string) error {
	key := pkg + "." + name
	if c.followed[key] {
		return nil
	}
	c.followed[key] = true
	p, err := c.load(pkg)
	if err != nil {
		return err
	}
	for _, f := range p.files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || (fn.Name.Name != name && receiverType(fn) != name) {
				continue
			}
			if err := c.scan(p, f, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// importNames returns the import paths of file's imports by the name the file uses for them.
func importNames(file *ast.File) map[string]string {
	names := map[string]string{}
	for _, spec := range file.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		names[name] = p
	}
	return names
}

// isSDKService reports whether the import path p is an SDK service package itself (not one of
// its subpackages, such as types).
func isSDKService(p string) bool {
	return strings.HasPrefix(p, sdkServicePrefix) && !strings.Contains(strings.TrimPrefix(p, sdkServicePrefix), "/")
}

// receiverType returns the name of the type fn is a method of, or "" for a function.
func receiverType(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return ""
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
