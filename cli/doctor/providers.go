package doctor

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// checkProviders reports each AWSProvider (in the checked namespace) and each
// ClusterAWSProvider: Ready with the identity it validated, or why not.
func (k *cluster) checkProviders(ctx context.Context) []Row {
	var rows []Row
	namespaced := &v1alpha1.AWSProviderList{}
	if err := k.c.List(ctx, namespaced, client.InNamespace(k.opts.Namespace)); err != nil {
		rows = append(rows, cannotCheck(CheckProvider, "AWSProvider", "list AWSProviders", err))
	} else {
		for i := range namespaced.Items {
			p := &namespaced.Items[i]
			rows = append(rows, providerRow("awsprovider", p.Namespace+"/"+p.Name, "-n "+p.Namespace+" ", &p.Status))
		}
	}
	clustered := &v1alpha1.ClusterAWSProviderList{}
	if err := k.c.List(ctx, clustered); err != nil {
		rows = append(rows, cannotCheck(CheckProvider, "ClusterAWSProvider", "list ClusterAWSProviders", err))
	} else {
		for i := range clustered.Items {
			p := &clustered.Items[i]
			rows = append(rows, providerRow("clusterawsprovider", p.Name, "", &p.Status))
		}
	}
	if len(namespaced.Items) == 0 && len(clustered.Items) == 0 && len(rows) == 0 {
		where := "in any namespace"
		if k.opts.Namespace != "" {
			where = "in namespace " + k.opts.Namespace
		}
		rows = append(rows, warn(CheckProvider, "AWSProvider", "no AWSProvider "+where+" and no ClusterAWSProvider: objects have no AWS credentials to use",
			"create an AWSProvider (README, Install) in the namespace of your objects, and name it in their spec.providerRef"))
	}
	return rows
}

// providerRow is the row of one provider: resource is its kubectl resource name, nsFlag its
// "-n NS " for kubectl (empty for ClusterAWSProviders).
func providerRow(resource, object, nsFlag string, st *v1alpha1.AWSProviderStatus) Row {
	object = resource + "/" + object
	ready := meta.FindStatusCondition(st.Conditions, condition.TypeReady)
	if ready != nil && ready.Status == metav1.ConditionTrue {
		detail := "Ready"
		if st.AccountID != "" {
			detail += ": account " + st.AccountID
		}
		if id := identity(st); id != "" {
			detail += " as " + id
		}
		return ok(CheckProvider, object, detail)
	}
	if ready == nil {
		return fail(CheckProvider, object, "not validated yet: no operator has checked its credentials",
			"check that an operator runs (the deployment rows above), then kubectl describe "+nsFlag+object)
	}
	return fail(CheckProvider, object, fmt.Sprintf("not Ready: %s: %s", ready.Reason, ready.Message), providerFix(ready.Reason, nsFlag+object))
}

// identity is the ARN the provider's credentials authenticated as.
func identity(st *v1alpha1.AWSProviderStatus) string {
	if st.CallerIdentity != "" {
		return st.CallerIdentity
	}
	return st.Identity
}

// providerFix says what to do about a provider that is not Ready for reason; ref is its
// "[-n NS ]kind/name" for kubectl.
func providerFix(reason, ref string) string {
	switch reason {
	case condition.ReasonSecretNotFound, condition.ReasonSecretKeyNotFound, condition.ReasonSecretValueInvalid:
		return "create or correct the Secret its accessKeyIDRef and secretAccessKeyRef name, in its namespace (kubectl get " + ref + " -o yaml)"
	case condition.ReasonCredentialsRejected:
		return "AWS refused the credentials: rotate the keys in its Secret, or fix spec.roleARN and the role's trust policy"
	case condition.ReasonEndpointUnreachable:
		return "check spec.endpoint and that the operator's pods reach AWS (network policy, proxy, DNS)"
	case condition.ReasonOperatorIdentityNotAllowed, condition.ReasonRoleNotAllowed, condition.ReasonEndpointNotAllowed,
		condition.ReasonEndpointNeedsStaticKeys, condition.ReasonEndpointAddressNotAllowed:
		return "a tenancy setting refuses it (docs/tenancy.md): give the provider static keys, or have the administrator allow it in the chart's tenancy values"
	default:
		return "kubectl describe " + ref + " and the operator's logs say more"
	}
}
