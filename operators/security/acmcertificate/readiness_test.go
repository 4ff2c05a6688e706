package acmcertificate

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestReadiness checks how each ACM status is reported: Ready once ISSUED; pending validation
// not Ready, with the records to create (each once) or the mail to answer, looked at again
// soon; the statuses ACM never leaves terminal, with what to do.
func TestReadiness(t *testing.T) {
	record := func(name string) *types.ResourceRecord {
		return &types.ResourceRecord{Name: aws.String("_x." + name + "."), Type: types.RecordTypeCname, Value: aws.String("_y.acm-validations.aws.")}
	}
	dns := func(name string, rec *types.ResourceRecord) types.DomainValidation {
		return types.DomainValidation{DomainName: aws.String(name), ValidationMethod: types.ValidationMethodDns,
			ValidationStatus: types.DomainStatusPendingValidation, ResourceRecord: rec}
	}
	requested := &v1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"}}
	imported := &v1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"},
		Spec: v1alpha1.ACMCertificateSpec{ImportFrom: &v1alpha1.ACMCertificateImport{SecretRef: v1alpha1.ACMCertificateSecretReference{Name: "tls"}}}}
	type want struct {
		ready   bool
		message string // held by the message
		reason  string // of the terminal conflict, "" for none
		text    string // held by the conflict
		recheck bool
	}
	cases := map[string]struct {
		c      *v1alpha1.ACMCertificate
		status types.CertificateStatus
		dvo    []types.DomainValidation
		want   want
	}{
		"Issued": {c: requested, status: types.CertificateStatusIssued, want: want{ready: true}},
		"PendingRecords": {c: requested, status: types.CertificateStatusPendingValidation,
			dvo:  []types.DomainValidation{dns("example.com", record("example.com")), dns("*.example.com", record("example.com")), dns("www.example.org", record("www.example.org"))},
			want: want{message: "create the DNS records CNAME _x.example.com. with value _y.acm-validations.aws., CNAME _x.www.example.org. with value _y.acm-validations.aws. (", recheck: true}},
		"PendingManyRecords": {c: requested, status: types.CertificateStatusPendingValidation,
			dvo:  []types.DomainValidation{dns("a.example.com", record("a.example.com")), dns("b.example.com", record("b.example.com")), dns("c.example.com", record("c.example.com")), dns("d.example.com", record("d.example.com")), dns("e.example.com", record("e.example.com"))},
			want: want{message: "_x.c.example.com. with value _y.acm-validations.aws. and 2 more", recheck: true}},
		"PendingNoRecordsYet": {c: requested, status: types.CertificateStatusPendingValidation, dvo: []types.DomainValidation{dns("example.com", nil)},
			want: want{message: "ACM is preparing the DNS validation records", recheck: true}},
		"PendingMail": {c: requested, status: types.CertificateStatusPendingValidation, dvo: []types.DomainValidation{{DomainName: aws.String("www.example.com"),
			ValidationMethod: types.ValidationMethodEmail, ValidationDomain: aws.String("example.com"), ValidationStatus: types.DomainStatusPendingValidation}},
			want: want{message: "answer the validation mail ACM sent to the administrative addresses of example.com", recheck: true}},
		"Failed":      {c: requested, status: types.CertificateStatusFailed, want: want{reason: condition.ReasonCertificateFailed, text: "(CAA_ERROR); remove the cause"}},
		"TimedOut":    {c: requested, status: types.CertificateStatusValidationTimedOut, want: want{reason: condition.ReasonCertificateFailed, text: "within 72 hours"}},
		"Revoked":     {c: requested, status: types.CertificateStatusRevoked, want: want{reason: condition.ReasonCertificateFailed, text: "create it again"}},
		"Expired":     {c: requested, status: types.CertificateStatusExpired, want: want{reason: condition.ReasonCertificateExpired, text: "create it again"}},
		"ImportedOld": {c: imported, status: types.CertificateStatusExpired, want: want{reason: condition.ReasonCertificateExpired, text: "put a renewed certificate in Secret ns/tls"}},
		"Inactive":    {c: requested, status: types.CertificateStatusInactive, want: want{message: "is INACTIVE"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cert := &types.CertificateDetail{CertificateArn: aws.String("arn:aws:acm:us-east-1:000000000000:certificate/1"), Status: tc.status,
				DomainValidationOptions: tc.dvo, FailureReason: types.FailureReasonCaaError, CreatedAt: aws.Time(time.Now()), NotAfter: aws.Time(time.Now())}
			var obs managed.Observation[State]
			readiness(&obs, tc.c, cert, Tunables{}.withDefaults())
			got := want{ready: obs.Ready, recheck: obs.ReadyIn > 0, message: tc.want.message, text: tc.want.text}
			if !strings.Contains(obs.Message, tc.want.message) {
				got.message = obs.Message
			}
			if term, ok := managed.AsTerminal(obs.Conflict); ok {
				got.reason = term.Reason
				if !strings.Contains(term.Error(), tc.want.text) {
					got.text = term.Error()
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestRecheck checks that a pending certificate is looked at again after a quarter of its age,
// within the bounds, the defaults' when none are given.
func TestRecheck(t *testing.T) {
	defaults := Tunables{}.withDefaults()
	cases := map[string]struct{ age, want time.Duration }{
		"New":     {0, 2 * time.Second},
		"Minutes": {4 * time.Minute, time.Minute},
		"Days":    {72 * time.Hour, 5 * time.Minute},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := defaults.recheck(tc.age); got != tc.want {
				t.Errorf("recheck(%s) = %s, want %s", tc.age, got, tc.want)
			}
		})
	}
}

// TestSameSerial checks that ACM's colon-separated serial numbers compare as numbers, leading
// zero bytes or not.
func TestSameSerial(t *testing.T) {
	cases := map[string]struct {
		acm    string
		serial int64
		want   bool
	}{
		"Equal":       {"01:00:ff", 0x0100ff, true},
		"LeadingZero": {"00:80:01", 0x8001, true},
		"Other":       {"01:00:fe", 0x0100ff, false},
		"Empty":       {"", 0x0100ff, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := sameSerial(tc.acm, big.NewInt(tc.serial)); got != tc.want {
				t.Errorf("sameSerial(%q, %x) = %v", tc.acm, tc.serial, got)
			}
		})
	}
}

// TestIdempotencyToken checks that the token of an object's UID is what ACM accepts (\w{1,32}).
func TestIdempotencyToken(t *testing.T) {
	if got := idempotencyToken("0b6e2a55-1f3c-4d7e-9a2b-5c8d9e0f1a2b"); got != "0b6e2a551f3c4d7e9a2b5c8d9e0f1a2b" {
		t.Errorf("token %q", got)
	}
}
