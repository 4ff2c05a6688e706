package plan

import (
	"fmt"
	"strings"

	"k8s.io/client-go/discovery"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// categoryPrefix starts the CRD category that names a kind's family ("aws-messaging").
const categoryPrefix = "aws-"

// KindFamilies returns, for every managed kind the cluster serves in the infra-operator API
// group, the family of operators that manages it, read from the category "aws-<family>" its
// CRD declares. The discovery API is open to every authenticated user, so this needs no RBAC.
func KindFamilies(d discovery.ServerResourcesInterface) (map[string]string, error) {
	list, err := d.ServerResourcesForGroupVersion(v1alpha1.GroupVersion.String())
	if err != nil {
		return nil, fmt.Errorf("discover the infra-operator kinds (install the CRDs with `infractl install`): %w", err)
	}
	families := map[string]string{}
	for _, r := range list.APIResources {
		if strings.Contains(r.Name, "/") || !Managed(r.Kind) {
			continue
		}
		for _, c := range r.Categories {
			if f, ok := strings.CutPrefix(c, categoryPrefix); ok && f != "" {
				families[r.Kind] = f
			}
		}
	}
	return families, nil
}

// Managed tells whether a kind of the infra-operator API group is one a family operator
// manages and plans: every kind but the providers and Preview itself.
func Managed(kind string) bool {
	switch kind {
	case "AWSProvider", "ClusterAWSProvider", "Preview":
		return false
	}
	return true
}
