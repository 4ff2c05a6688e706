package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestACMUpdateCertificateOptions opts a requested certificate out of certificate transparency
// logging and back in, and checks what UpdateCertificateOptions refuses.
func TestACMUpdateCertificateOptions(t *testing.T) {
	_, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	out, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("logs.example.com"), ValidationMethod: types.ValidationMethodDns})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.CertificateArn
	if got := describeCert(t, c, arn).Options.CertificateTransparencyLoggingPreference; got != types.CertificateTransparencyLoggingPreferenceEnabled {
		t.Fatalf("a new certificate's preference is %s, want ENABLED", got)
	}
	for _, want := range []types.CertificateTransparencyLoggingPreference{types.CertificateTransparencyLoggingPreferenceDisabled, types.CertificateTransparencyLoggingPreferenceEnabled} {
		if _, err := c.UpdateCertificateOptions(ctx, &acm.UpdateCertificateOptionsInput{CertificateArn: arn,
			Options: &types.CertificateOptions{CertificateTransparencyLoggingPreference: want}}); err != nil {
			t.Fatal(err)
		}
		if got := describeCert(t, c, arn).Options.CertificateTransparencyLoggingPreference; got != want {
			t.Errorf("after setting %s the preference is %s", want, got)
		}
	}
	cases := map[string]struct {
		in   *acm.UpdateCertificateOptionsInput
		want string
	}{
		"UnknownPreference": {&acm.UpdateCertificateOptionsInput{CertificateArn: arn, Options: &types.CertificateOptions{CertificateTransparencyLoggingPreference: "MAYBE"}}, "ValidationException"},
		"BadARN":            {&acm.UpdateCertificateOptionsInput{CertificateArn: aws.String("not-an-arn"), Options: &types.CertificateOptions{CertificateTransparencyLoggingPreference: "DISABLED"}}, "InvalidArnException"},
		"Missing": {&acm.UpdateCertificateOptionsInput{CertificateArn: aws.String("arn:aws:acm:us-east-1:000000000000:certificate/00000000-0000-4000-8000-000000000000"),
			Options: &types.CertificateOptions{CertificateTransparencyLoggingPreference: "DISABLED"}}, "ResourceNotFoundException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := c.UpdateCertificateOptions(ctx, tc.in); errorCode(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}
