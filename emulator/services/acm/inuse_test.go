package acm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// TestSetInUseBy checks that a certificate in use is reported so and cannot be deleted until
// its users let it go.
func TestSetInUseBy(t *testing.T) {
	b := New(&core.Clock{})
	call := &core.Call{Context: context.Background(), Account: "111111111111", Region: "us-east-1", Now: time.Now()}
	out, err := b.requestCertificate(call, &acm.RequestCertificateInput{DomainName: aws.String("example.com")})
	if err != nil {
		t.Fatal(err)
	}
	lb := "arn:aws:elasticloadbalancing:us-east-1:111111111111:loadbalancer/app/web/0123456789abcdef"
	if !b.SetInUseBy(call.Scope(), aws.ToString(out.CertificateArn), []string{lb}) {
		t.Fatal("SetInUseBy did not find the certificate")
	}
	if b.SetInUseBy(core.Scope{Account: "222222222222", Region: "us-east-1"}, aws.ToString(out.CertificateArn), []string{lb}) {
		t.Error("SetInUseBy found the certificate in another account")
	}
	d, err := b.describeCertificate(call, &acm.DescribeCertificateInput{CertificateArn: out.CertificateArn})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Certificate.InUseBy) != 1 || d.Certificate.InUseBy[0] != lb || d.Certificate.RenewalEligibility != types.RenewalEligibilityEligible {
		t.Errorf("a certificate in use = %+v", d.Certificate)
	}
	var apiErr *core.APIError
	if _, err := b.deleteCertificate(call, &acm.DeleteCertificateInput{CertificateArn: out.CertificateArn}); !errors.As(err, &apiErr) || apiErr.Code != "ResourceInUseException" {
		t.Errorf("deleting a certificate in use: %v, want ResourceInUseException", err)
	}
	b.SetInUseBy(call.Scope(), aws.ToString(out.CertificateArn), nil)
	if _, err := b.deleteCertificate(call, &acm.DeleteCertificateInput{CertificateArn: out.CertificateArn}); err != nil {
		t.Errorf("deleting the certificate once unused: %v", err)
	}
}
