package provider

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
)

// TestIRSAExchangesTokenForRole checks the IRSA path: with no static keys and a web identity
// token in the pod, the token is exchanged for spec.roleARN directly with
// AssumeRoleWithWebIdentity at the administrator's STS endpoint, and the resulting credentials
// act as that role's account.
func TestIRSAExchangesTokenForRole(t *testing.T) {
	stsServer := &ststest.Server{}
	srv := httptest.NewServer(stsServer)
	defer srv.Close()
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte(ststest.WebIdentityToken), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_WEB_IDENTITY_TOKEN_FILE", token)
	t.Setenv("AWS_ROLE_ARN", "")
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")

	p := testProvider(func(p *v1alpha1.AWSProvider) {
		p.Spec.AccessKeyIDRef, p.Spec.SecretAccessKeyRef = nil, nil
		p.Spec.RoleARN = "arn:aws:iam::111122223333:role/infra-operator"
		p.Spec.Endpoint = ""
	})
	c := fakeClient(t, p)
	tenancy := &Tenancy{OperatorIdentityNamespaces: []string{"*"}, STSEndpoint: srv.URL}
	sess, err := (&Resolver{Client: c, APIReader: c, Tenancy: tenancy}).ForProvider(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := sts.NewFromConfig(sess.Config, func(o *sts.Options) { o.BaseEndpoint = aws.String(srv.URL) }).
		GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(out.Account); got != "111122223333" {
		t.Errorf("account = %s, want the role's account 111122223333", got)
	}
	if stsServer.Calls("AssumeRoleWithWebIdentity") != 1 || stsServer.Calls("AssumeRole") != 0 {
		t.Errorf("want one AssumeRoleWithWebIdentity and no AssumeRole; got %d and %d",
			stsServer.Calls("AssumeRoleWithWebIdentity"), stsServer.Calls("AssumeRole"))
	}
}
