package main

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/runner-codes/infra-operator/emulator"
)

// options are the command's flags.
type options struct {
	// Root is the repository's root directory.
	Root string
	// Family is the existing family the kind goes into.
	Family string
	// Kind is the new kind's name.
	Kind string
	// Service is the name of the aws-sdk-go-v2 service package the driver calls.
	Service string
}

// sdkServicePrefix is the prefix of the import paths of the aws-sdk-go-v2 service packages.
const sdkServicePrefix = "github.com/aws/aws-sdk-go-v2/service/"

// The forms the flags must take.
var (
	kindName    = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	lowerName   = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
	moduleMatch = regexp.MustCompile(`(?m)^module\s+(\S+)\s*$`)
	packageLine = regexp.MustCompile(`(?m)^package\s+(\w+)\s*$`)
)

// spec is what the templates and the edits are made from: the options and what follows from
// them.
type spec struct {
	options
	// FamilyDir is the family's directory.
	FamilyDir string
	// TestDir is the directory of the family's integration tests and benchmarks.
	TestDir string
	// Module is the family module's path.
	Module string
	// Package is the name of the kind's driver package, the kind's name in lower case; the
	// example and the test are named after it too.
	Package string
	// Receiver is the name of the type's method receivers.
	Receiver string
	// Plural is the kind's resource name, as the CRD will name it.
	Plural string
	// ExampleName is the name of the example's object.
	ExampleName string
	// TestPackage is the package of the family's integration tests.
	TestPackage string
	// ServiceID is the emulator's name of the service, in counters ("EC2").
	ServiceID string
	// ServiceIDs are the emulator's names of every service it serves.
	ServiceIDs map[string]bool
	// Emulated is true when the emulator serves the service already.
	Emulated bool
	// Required is true when the family's go.mod requires the service's SDK module already.
	Required bool
}

// newSpec checks the options and derives the spec from them and the family's files; it
// refuses a kind the family has already.
func newSpec(o options) (spec, error) {
	switch {
	case !kindName.MatchString(o.Kind):
		return spec{}, fmt.Errorf("-kind %q is not an exported Go name such as ElasticIP", o.Kind)
	case !lowerName.MatchString(o.Family):
		return spec{}, fmt.Errorf("-family %q is not a family's name such as networking", o.Family)
	case !lowerName.MatchString(o.Service):
		return spec{}, fmt.Errorf("-service %q is not an SDK service package's name such as ec2", o.Service)
	case token.IsKeyword(strings.ToLower(o.Kind)):
		return spec{}, fmt.Errorf("-kind %q makes the package name %s, a Go keyword", o.Kind, strings.ToLower(o.Kind))
	}
	s := spec{options: o, FamilyDir: filepath.Join(o.Root, "operators", o.Family), TestDir: filepath.Join(o.Root, "e2e", o.Family),
		Package:  strings.ToLower(o.Kind),
		Receiver: strings.ToLower(o.Kind[:1]), Plural: plural(strings.ToLower(o.Kind)), ExampleName: "example-" + strings.ToLower(o.Kind),
		ServiceIDs: map[string]bool{}}
	mod, err := os.ReadFile(filepath.Join(s.FamilyDir, "go.mod"))
	if err != nil {
		return spec{}, fmt.Errorf("the family %s: %w", o.Family, err)
	}
	m := moduleMatch.FindSubmatch(mod)
	if m == nil {
		return spec{}, fmt.Errorf("the family %s: its go.mod names no module", o.Family)
	}
	s.Module = string(m[1])
	s.Required = strings.Contains(string(mod), sdkServicePrefix+o.Service+" ")
	family, err := os.ReadFile(filepath.Join(s.FamilyDir, "family.go"))
	if err != nil {
		return spec{}, fmt.Errorf("the family %s: %w", o.Family, err)
	}
	if s.TestPackage, err = testPackage(s.TestDir, family); err != nil {
		return spec{}, err
	}
	if err := s.refuseExisting(family); err != nil {
		return spec{}, err
	}
	for pkg, svc := range emulator.New(emulator.Options{}).Served() {
		s.ServiceIDs[svc.ID] = true
		if pkg == sdkServicePrefix+o.Service {
			s.ServiceID, s.Emulated = svc.ID, true
		}
	}
	if !s.Emulated {
		s.ServiceID = strings.ToUpper(o.Service)
	}
	return s, nil
}

// refuseExisting returns an error when the family has the kind already: its type file, its
// driver package, its example, or its registration in family.go.
func (s spec) refuseExisting(family []byte) error {
	for _, p := range []string{s.typesPath(), s.driverDir(), s.examplePath(), s.testPath()} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("the %s family has the kind %s already: %s exists", s.Family, s.Kind, p)
		}
	}
	if strings.Contains(string(family), s.Package+".Kind()") {
		return fmt.Errorf("the %s family has the kind %s already: family.go declares %s.Kind()", s.Family, s.Kind, s.Package)
	}
	return nil
}

// typesPath is the path of the kind's API type file.
func (s spec) typesPath() string {
	return filepath.Join(s.FamilyDir, "api", "v1alpha1", s.Package+"_types.go")
}

// driverDir is the directory of the kind's driver package.
func (s spec) driverDir() string { return filepath.Join(s.FamilyDir, s.Package) }

// examplePath is the path of the kind's example.
func (s spec) examplePath() string {
	return filepath.Join(s.Root, "examples", s.Family, s.Package+".yaml")
}

// testPath is the path of the kind's integration test.
func (s spec) testPath() string { return filepath.Join(s.TestDir, s.Package+"_test.go") }

// benchPath is the path of the family's benchmarks.
func (s spec) benchPath() string { return filepath.Join(s.TestDir, "bench_test.go") }

// testPackage returns the package of the tests in dir, the family's integration tests: the
// package of the first test file there, else the package of family.go, the family's source,
// with _test.
func testPackage(dir string, family []byte) (string, error) {
	tests, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", fmt.Errorf("find the family's tests: %w", err)
	}
	if len(tests) > 0 {
		b, err := os.ReadFile(tests[0])
		if err != nil {
			return "", fmt.Errorf("read the family's tests: %w", err)
		}
		if p := packageLine.FindSubmatch(b); p != nil {
			return string(p[1]), nil
		}
	}
	p := packageLine.FindSubmatch(family)
	if p == nil {
		return "", errors.New("the family's family.go has no package clause")
	}
	return string(p[1]) + "_test", nil
}

// plural returns the plural of a lower-case kind name as Kubernetes' tools make it for a
// resource name: the common English endings, which the CRD's generated name should be
// checked against.
func plural(name string) string {
	switch {
	case strings.HasSuffix(name, "s"), strings.HasSuffix(name, "x"), strings.HasSuffix(name, "ch"), strings.HasSuffix(name, "sh"):
		return name + "es"
	case strings.HasSuffix(name, "y") && len(name) > 1 && !strings.ContainsAny(name[len(name)-2:len(name)-1], "aeiou"):
		return name[:len(name)-1] + "ies"
	}
	return name + "s"
}
