package e2e

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// A kindCheck is one of the places a kind touches: run returns what is missing there, each
// finding a sentence that says what to do.
type kindCheck struct {
	name string
	run  func(c *conformance, k declaredKind) []string
}

// kindChecks are the places every kind touches, in the order docs/adding-a-kind.md adds them.
var kindChecks = []kindCheck{
	{"scheme registration", checkScheme},
	{"CRD", checkCRD},
	{"RBAC for references", checkReferenceRBAC},
	{"emulator coverage", checkEmulator},
	{"example", checkExample},
	{"benchmark", checkBenchmark},
	{"outputs documented", checkOutputs},
	{"Argo CD health check", checkHealth},
}

// checkScheme checks that the family's AddToScheme registers the kind's type and its list
// type, which the engine lists objects with.
func checkScheme(_ *conformance, k declaredKind) []string {
	scheme := runtime.NewScheme()
	for _, add := range k.Family.AddToScheme {
		if err := add(scheme); err != nil {
			return []string{fmt.Sprintf("the family's AddToScheme fails: %v", err)}
		}
	}
	fix := fmt.Sprintf("add &%s{}, &%sList{} to AddKnownTypes in operators/%s/api/v1alpha1/groupversion_info.go",
		k.Type.Name(), k.Type.Name(), k.Family.Name)
	obj, ok := reflect.New(k.Type).Interface().(runtime.Object)
	if !ok {
		return []string{fmt.Sprintf("*%s is no runtime.Object: run `make generate` for its deepcopy functions", k.Type.Name())}
	}
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		return []string{"the family's AddToScheme does not register its type: " + fix}
	}
	var findings []string
	if gvks[0].Kind != k.Name {
		findings = append(findings, fmt.Sprintf("the scheme registers its type as %s, not %s", gvks[0].Kind, k.Name))
	}
	if !scheme.Recognizes(gvks[0].GroupVersion().WithKind(k.Name + "List")) {
		findings = append(findings, fmt.Sprintf("the family's AddToScheme does not register %sList: %s", k.Name, fix))
	}
	return findings
}

// checkCRD checks that the family's CRDs hold the kind's.
func checkCRD(c *conformance, k declaredKind) []string {
	if c.crdKinds[k.Family.Name][k.Name] {
		return nil
	}
	return []string{fmt.Sprintf("operators/%s/crds holds no CRD of the kind: mark its type +kubebuilder:object:root=true "+
		"and +kubebuilder:subresource:status and run `make generate charts`", k.Family.Name)}
}

// checkReferenceRBAC checks that the family's ClusterRole lets it get, list and watch every
// kind the kind's references name, the kinds of other families included: the engine watches
// the targets of references, and without the permission a family installed on its own could
// not resolve a reference across families.
func checkReferenceRBAC(c *conformance, k declaredKind) []string {
	var findings []string
	for _, target := range k.Controller.Targets() {
		if !mayRead(c.roles[k.Family.Name], c.plural[target.Kind]) {
			findings = append(findings, fmt.Sprintf("the family's role may not get, list and watch %s (%s), which its references name: "+
				"add an RBAC marker to operators/%s/rbac.go and run `make generate charts`", c.plural[target.Kind], target.Kind, k.Family.Name))
		}
	}
	return findings
}

// checkEmulator checks that the emulator serves every SDK operation the kind's driver calls.
func checkEmulator(c *conformance, k declaredKind) []string {
	ops, err := c.calls.Operations(k.DriverPackage)
	if err != nil {
		return []string{err.Error()}
	}
	if len(ops) == 0 {
		return []string{fmt.Sprintf("its driver (%s) makes no AWS call yet: write Observe, Create and Delete", k.DriverDir())}
	}
	var findings []string
	for _, op := range ops {
		svc, ok := c.served[op.Package]
		switch {
		case !ok:
			findings = append(findings, fmt.Sprintf("the emulator serves no %s service, which its driver calls (%s): add emulator/services/%s/ "+
				"(its operations, a model in emulator/internal/models if the SDK has no schemas), register it in emulator/server.go "+
				"and cover it in emulator/coverage_test.go's suite", path.Base(op.Package), op, path.Base(op.Package)))
		case !slices.Contains(svc.Operations, op.Name):
			findings = append(findings, fmt.Sprintf("the emulator does not serve %s, which its driver calls: add it to the %s service "+
				"(emulator/services/) with a test through the SDK (emulator/coverage_test.go fails without one)", op, svc.ID))
		}
	}
	return findings
}

// checkExample checks that an example under examples/<family>/ makes an object of the kind:
// the sandbox applies every one and waits for it to be Ready.
func checkExample(c *conformance, k declaredKind) []string {
	if len(c.examples[k.Family.Name].byKind[k.Name]) > 0 {
		return nil
	}
	return []string{fmt.Sprintf("no example under examples/%s/ makes one: add examples/%s/%s.yaml, minimal, with the providerRef "+
		"production-aws, so that `infractl sandbox` reconciles it offline", k.Family.Name, k.Family.Name, strings.ToLower(k.Name))}
}

// checkBenchmark checks that the family's benchmarks measure the kind.
func checkBenchmark(c *conformance, k declaredKind) []string {
	if c.benchmarked[k.Family.Name][k.Name] {
		return nil
	}
	return []string{fmt.Sprintf("e2e/%s/bench_test.go names neither v1alpha1.%s nor an example that makes one: "+
		"add the kind's example to the family's BenchmarkSeedExamples", k.Family.Name, k.Type.Name())}
}

// checkOutputs checks that the kind declares outputs and that README.md or a page under docs/
// lists them.
func checkOutputs(c *conformance, k declaredKind) []string {
	o, ok := reflect.New(k.Type).Interface().(shared.Managed)
	if !ok {
		return []string{fmt.Sprintf("*%s is no shared.Managed: embed shared.ManagedSpec and shared.ManagedStatus", k.Type.Name())}
	}
	line, ok := outputsLine(k.Name, o)
	if !ok {
		return []string{`it declares no outputs: tag the status fields an application needs output:""`}
	}
	if !strings.Contains(c.docs, line) {
		return []string{"neither README.md nor a page under docs/ lists its outputs: add the line\n" + line}
	}
	return nil
}

// checkHealth checks that the Argo CD health checks example holds the kind's.
func checkHealth(c *conformance, k declaredKind) []string {
	if _, ok := c.health["resource.customizations.health."+shared.Group+"_"+k.Name]; ok {
		return nil
	}
	return []string{"examples/gitops/argocd/argocd-cm-health.yaml has no health check for it: " +
		"run `(cd e2e && go test -run TestArgoCDHealthConfig . -update)`"}
}
