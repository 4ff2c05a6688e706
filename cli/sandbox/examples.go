package sandbox

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/runner-codes/infra-operator/cli/internal/kube"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ExampleDirs are the directories of the examples tree the sandbox applies, in order: its own
// providers and the objects the seed examples name first, then every family's examples. The
// GitOps and tenancy examples need a cluster of their own (Argo CD, Flux, an operator
// namespace) and are left out.
var ExampleDirs = []string{"sandbox", "data", "messaging", "networking", "compute", "security", "edge", "containers", "caching"}

// ownNamespaces are the example files applied into a namespace of their own, because they make
// objects another example makes under the same name, and why.
var ownNamespaces = map[string]struct{ namespace, why string }{
	"networking/quickstart.yaml":          {"quickstart", "its VPC production-vpc is also vpc-basic.yaml's"},
	"networking/multi-tier.yaml":          {"multi-tier", "multi-tier-references.yaml makes the same objects with references"},
	"networking/subnet-multi-az.yaml":     {"multi-az", "its subnet public-subnet-1a is also subnet-public.yaml's"},
	"networking/natgateway-multi-az.yaml": {"multi-az", "its gateways go in subnet-multi-az.yaml's subnets"},
	"compute/lambdafunction-serverless.yaml": {"serverless",
		"its function api-handler is also lambdafunction-api-handler.yaml's"},
}

// seedIDs are the made-up ids the seed's networking guide uses for objects another of its
// examples makes (the VPC of vpc-basic.yaml, the subnets of subnet-public.yaml and
// subnet-multi-az.yaml): the sandbox names those objects by reference instead.
var seedIDs = map[string]struct{ name, file string }{
	"vpc-f3ea9b1b36fce09cd":    {"production-vpc", "vpc-basic.yaml"},
	"subnet-12853af5337079de5": {"public-subnet-1a", "subnet-public.yaml"},
	"subnet-public-1a":         {"public-subnet-1a", "subnet-multi-az.yaml"},
	"subnet-public-1b":         {"public-subnet-1b", "subnet-multi-az.yaml"},
}

// placeholder matches the ids the seeds write for "your own": sg-xxx, subnet-xxx, vpc-xxx.
var placeholder = regexp.MustCompile(`^(sg|subnet|vpc)-xxx$`)

// placeholderAccount matches an ARN whose account is the placeholder xxx.
var placeholderAccount = regexp.MustCompile(`^(arn:aws:[a-z0-9-]+:[a-z0-9-]*:)xxx(:.*)$`)

// A Step is one example file as the sandbox applies it.
type Step struct {
	// File is the example file's path.
	File string
	// Objects are its objects, their namespace set and their placeholders replaced, preceded
	// by what a namespace of its own needs (the namespace, copies of the providers).
	Objects []*unstructured.Unstructured
	// Notes say, one line each, which namespace the file went into and what was replaced.
	Notes []string
}

// PlanExamples reads the example files of ExampleDirs under root and returns them as the
// sandbox applies them: each in its namespace, with the placeholders that cannot work offline
// replaced by references to the objects they stand for or by the ids of b's resources, and
// the AWSProviders' endpoint set to the sandbox's emulator, endpoint.
func PlanExamples(root string, b Baseline, endpoint string) ([]Step, error) {
	dirs := make([]string, len(ExampleDirs))
	for i, d := range ExampleDirs {
		dirs[i] = filepath.Join(root, d)
	}
	files, err := kube.ReadManifestFiles(dirs)
	if err != nil {
		return nil, err
	}
	// The providers and Secrets of the sandbox's own examples, copied into namespaces of their own.
	c := copier{providers: map[string]*unstructured.Unstructured{}, made: map[string]bool{}}
	for _, f := range files {
		for _, o := range f.Objects {
			if filepath.Dir(f.Path) == dirs[0] && (o.GetKind() == "AWSProvider" || o.GetKind() == "Secret") {
				c.providers[o.GetKind()+"/"+o.GetName()] = o
			}
		}
	}
	var steps []Step
	seen := map[string]string{}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f.Path)
		s := Step{File: f.Path}
		if own, ok := ownNamespaces[filepath.ToSlash(rel)]; ok {
			s.Notes = append(s.Notes, fmt.Sprintf("into namespace %s (%s)", own.namespace, own.why))
			s.Objects = append(s.Objects, c.into(own.namespace, f.Objects)...)
			for _, o := range f.Objects {
				o.SetNamespace(own.namespace)
			}
		}
		for _, o := range f.Objects {
			if o.GetNamespace() == "" {
				o.SetNamespace("default")
			}
			if ep, _, _ := unstructured.NestedString(o.Object, "spec", "endpoint"); o.GetKind() == "AWSProvider" && ep != "" && ep != endpoint {
				_ = unstructured.SetNestedField(o.Object, endpoint, "spec", "endpoint")
				s.Notes = append(s.Notes, fmt.Sprintf("AWSProvider %s: %s -> %s (the sandbox's emulator)", o.GetName(), ep, endpoint))
			}
			s.Notes = append(s.Notes, replacePlaceholders(o, f.Objects, b)...)
			s.Objects = append(s.Objects, o)
		}
		for _, o := range s.Objects {
			id := o.GetKind() + " " + o.GetNamespace() + "/" + o.GetName()
			if other, ok := seen[id]; ok && other != f.Path {
				return nil, fmt.Errorf("%s and %s both make %s: give one a namespace of its own in the sandbox", other, f.Path, id)
			}
			seen[id] = f.Path
		}
		steps = append(steps, s)
	}
	return steps, nil
}

// copier makes the namespaces of the examples that have their own, with copies of the
// sandbox's providers in them, each once.
type copier struct {
	// providers are the sandbox's AWSProviders and Secrets, keyed "Kind/name".
	providers map[string]*unstructured.Unstructured
	// made holds the namespaces and the "namespace Kind/name" of the copies made so far.
	made map[string]bool
}

// into returns what is not made yet of: the namespace ns and, in it, copies of the providers
// objs name and of the Secrets those providers read their keys from.
func (c *copier) into(ns string, objs []*unstructured.Unstructured) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	if !c.made[ns] {
		out = append(out, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}})
		c.made[ns] = true
	}
	add := func(key string) {
		if p, ok := c.providers[key]; ok && !c.made[ns+" "+key] {
			cp := p.DeepCopy()
			cp.SetNamespace(ns)
			out = append(out, cp)
			c.made[ns+" "+key] = true
		}
	}
	for _, o := range objs {
		name, _, _ := unstructured.NestedString(o.Object, "spec", "providerRef", "name")
		p, ok := c.providers["AWSProvider/"+name]
		if !ok {
			continue
		}
		for _, field := range []string{"accessKeyIDRef", "secretAccessKeyRef"} {
			secret, _, _ := unstructured.NestedString(p.Object, "spec", field, "name")
			add("Secret/" + secret)
		}
		add("AWSProvider/" + name)
	}
	return out
}

// replacePlaceholders replaces, in o's spec, the placeholder ids that cannot work offline, and
// returns one note per replacement. file holds the objects of o's file.
//
//   - vpcID or subnetID set to vpc-xxx or subnet-xxx in a file that makes a VPC or subnet
//     becomes vpcRef or subnetRef naming it (the seed says "Will be filled automatically");
//   - vpcID or subnetID set to a made-up id of the seed (seedIDs) becomes a reference to the
//     object it stands for;
//   - any other sg-xxx, subnet-xxx and vpc-xxx becomes the id of the default VPC's default
//     security group, of its subnet in the first zone, and of the sandbox's own VPC;
//   - an ARN whose account is xxx gets the sandbox's account.
func replacePlaceholders(o *unstructured.Unstructured, file []*unstructured.Unstructured, b Baseline) []string {
	spec, ok := o.Object["spec"].(map[string]any)
	if !ok || o.GroupVersionKind().Group != v1alpha1.Group {
		return nil
	}
	var notes []string
	for _, field := range []string{"vpcID", "subnetID"} {
		v, _ := spec[field].(string)
		target, why := referenceFor(field, v, file)
		if target == "" {
			continue
		}
		ref := strings.TrimSuffix(field, "ID") + "Ref"
		delete(spec, field)
		spec[ref] = map[string]any{"name": target}
		notes = append(notes, fmt.Sprintf("%s %s: %s %s -> %s %s (%s)", o.GetKind(), o.GetName(), field, v, ref, target, why))
	}
	walkStrings(spec, func(v string) string {
		to, why := baselineValue(v, b)
		if to != "" {
			notes = append(notes, fmt.Sprintf("%s %s: %s -> %s (%s)", o.GetKind(), o.GetName(), v, to, why))
			return to
		}
		return v
	})
	return notes
}

// referenceFor returns the name of the object a placeholder id v of field (vpcID, subnetID)
// stands for, and why, or "" when v is no such placeholder.
func referenceFor(field, v string, file []*unstructured.Unstructured) (name, why string) {
	if s, ok := seedIDs[v]; ok {
		return s.name, "the seed's id for the object of " + s.file
	}
	if !placeholder.MatchString(v) {
		return "", ""
	}
	// A subnet placeholder names the file's first public subnet (the seed's NAT gateway asks
	// for one), else its first subnet.
	kind := map[string]string{"vpcID": "VPC", "subnetID": "Subnet"}[field]
	for _, publicOnly := range []bool{kind == "Subnet", false} {
		for _, u := range file {
			public, _, _ := unstructured.NestedBool(u.Object, "spec", "mapPublicIpOnLaunch")
			if u.GetKind() == kind && (public || !publicOnly) {
				return u.GetName(), "the " + kind + " this file makes"
			}
		}
	}
	return "", ""
}

// baselineValue returns what a placeholder value v becomes in the sandbox and why, or "" when v
// is no placeholder.
func baselineValue(v string, b Baseline) (to, why string) {
	switch {
	case v == "sg-xxx":
		return b.DefaultSecurityGroup, "the default VPC's default security group"
	case v == "subnet-xxx":
		return b.DefaultSubnets[0], "the default VPC's subnet in the first availability zone"
	case v == "vpc-xxx":
		return b.VPC, "the sandbox's VPC, " + baselineVPCCIDR
	case placeholderAccount.MatchString(v):
		return placeholderAccount.ReplaceAllString(v, "${1}"+SeedAccount+"${2}"), "the sandbox's account"
	}
	return "", ""
}

// walkStrings replaces every string value under v (maps and lists, recursively) by f's result.
func walkStrings(v any, f func(string) string) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if s, ok := t[k].(string); ok {
				t[k] = f(s)
			} else {
				walkStrings(t[k], f)
			}
		}
	case []any:
		for i, x := range t {
			if s, ok := x.(string); ok {
				t[i] = f(s)
			} else {
				walkStrings(x, f)
			}
		}
	}
}
