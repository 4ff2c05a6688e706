package security_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/emulator"
	computev1 "github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	computecrds "github.com/runner-codes/infra-operator/operators/compute/crds"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	securitycrds "github.com/runner-codes/infra-operator/operators/security/crds"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestIAMOIDCProviderClusterRef makes the provider of an EKSCluster's issuer: the provider
// waits until the cluster is Ready with its issuer, then is made for the issuer's URL. The
// compute family's CRDs are installed, but not its controllers: the test writes the cluster's
// status as the compute family would once EKS made the cluster.
func TestIAMOIDCProviderClusterRef(t *testing.T) {
	emu := emulator.New(emulator.Options{})
	env := testenv.Start(t, testenv.Options{AWS: emu, CRDs: []fs.FS{securitycrds.FS(), computecrds.FS()},
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme, computev1.AddToScheme}})
	families.RunWith(t, env, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, security.Family())
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	h := &harness{env: env, emu: emu, iam: iam.NewFromConfig(cfg), acm: acm.NewFromConfig(cfg), c: env.Client}
	ns := env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()

	p := &v1alpha1.IAMOIDCProvider{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "irsa"}}
	p.Spec.ProviderRef.Name = "aws"
	p.Spec.ClusterRef = &shared.Reference{Name: "cluster"}
	kubetest.Create(t, h.c, p)
	kubetest.WaitFor(t, h.c, p, kubetest.Timeout, "waiting for the cluster", func(x *v1alpha1.IAMOIDCProvider) bool {
		c := meta.FindStatusCondition(x.Status.Conditions, condition.TypeReady)
		return c != nil && c.Status == metav1.ConditionFalse && x.Status.ARN == ""
	})

	cluster := &computev1.EKSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cluster"}}
	cluster.Spec.ProviderRef.Name = "aws"
	cluster.Spec.ClusterName, cluster.Spec.Version = "irsa", "1.31"
	cluster.Spec.RoleARN = "arn:aws:iam::000000000000:role/eks"
	cluster.Spec.ResourcesVPCConfig.SubnetIDs = []string{"subnet-a", "subnet-b"}
	kubetest.Create(t, h.c, cluster)
	const issuer = "https://oidc.eks.us-east-1.amazonaws.com/id/CLUSTERISSUER"
	cluster.Status.OIDCIssuer, cluster.Status.Ready = issuer, true
	meta.SetStatusCondition(&cluster.Status.Conditions, metav1.Condition{Type: condition.TypeReady, Status: metav1.ConditionTrue, Reason: "Available", Message: "ACTIVE"})
	if err := h.c.Status().Update(ctx, cluster); err != nil {
		t.Fatal(err)
	}

	p = kubetest.WaitReady(t, h.c, p)
	if !strings.HasSuffix(p.Status.ARN, ":oidc-provider/"+strings.TrimPrefix(issuer, "https://")) {
		t.Errorf("the provider is %s, not the cluster issuer's", p.Status.ARN)
	}
	ids, _, _ := h.oidcProvider(t, p.Status.ARN)
	if len(ids) != 1 || ids[0] != "sts.amazonaws.com" {
		t.Errorf("client IDs %v", ids)
	}
	if err := h.c.Delete(ctx, p); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitGone(t, h.c, p)
	if _, err := h.iam.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(p.Status.ARN)}); err == nil {
		t.Errorf("the provider is still there after its object went")
	}
}
