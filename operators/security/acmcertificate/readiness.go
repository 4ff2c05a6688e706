package acmcertificate

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// shownRecords is how many validation records a condition message names; the status lists all.
const shownRecords = 3

// readiness reports the certificate Ready once ISSUED. One pending validation is not Ready,
// with the records to create (or the mail to answer) in the message, and is looked at again
// later; one that ACM will never issue (FAILED, VALIDATION_TIMED_OUT, REVOKED, EXPIRED) is a
// terminal condition that says what to do; t paces the looks at a pending one.
func readiness(obs *managed.Observation[State], c *v1alpha1.ACMCertificate, cert *types.CertificateDetail, t Tunables) {
	arn := aws.ToString(cert.CertificateArn)
	renew := "delete this ACMCertificate and create it again to request a new certificate"
	switch cert.Status {
	case types.CertificateStatusIssued:
		obs.Ready = true
	case types.CertificateStatusPendingValidation:
		obs.Message = pendingMessage(cert)
		if zone := c.Spec.HostedZoneID; zone != "" && len(pendingRecords(cert)) > 0 {
			obs.Message = fmt.Sprintf("pending validation: the validation records are written into hosted zone %s; "+
				"ACM issues the certificate once it sees them", zone)
		}
		obs.ReadyIn = t.recheck(time.Since(aws.ToTime(cert.CreatedAt)))
	case types.CertificateStatusFailed:
		obs.Conflict = managed.Terminal(condition.ReasonCertificateFailed, "ACM could not issue certificate %s (%s); remove the cause "+
			"(see Troubleshooting failed certificate requests in the ACM user guide), then %s", arn, cert.FailureReason, renew)
	case types.CertificateStatusValidationTimedOut:
		obs.Conflict = managed.Terminal(condition.ReasonCertificateFailed, "the names of certificate %s were not validated within 72 hours "+
			"of its request; %s, and create its validation records (or answer its validation mail) within 72 hours", arn, renew)
	case types.CertificateStatusRevoked:
		obs.Conflict = managed.Terminal(condition.ReasonCertificateFailed, "certificate %s was revoked; %s", arn, renew)
	case types.CertificateStatusExpired:
		switch {
		case slices.Contains(obs.Changes.Fields(), fieldImport):
			obs.Message = fmt.Sprintf("certificate %s expired; importing the certificate of its Secret", arn)
		case c.Spec.ImportFrom != nil:
			obs.Conflict = managed.Terminal(condition.ReasonCertificateExpired, "certificate %s expired on %s; put a renewed certificate in Secret %s/%s",
				arn, aws.ToTime(cert.NotAfter).UTC().Format(time.RFC3339), c.Namespace, c.Spec.ImportFrom.SecretRef.Name)
		default:
			obs.Conflict = managed.Terminal(condition.ReasonCertificateExpired, "certificate %s expired on %s: ACM renews a certificate only while it "+
				"is in use and its validation records stay; %s", arn, aws.ToTime(cert.NotAfter).UTC().Format(time.RFC3339), renew)
		}
	default:
		obs.Message = fmt.Sprintf("certificate %s is %s", arn, cert.Status)
	}
}

// recheck returns how soon to look again at a certificate pending validation for age: a
// quarter of its age, between t.RecheckMin and t.RecheckMax.
func (t Tunables) recheck(age time.Duration) time.Duration {
	return min(max(age/4, t.RecheckMin), t.RecheckMax)
}

// pendingMessage says what a certificate pending validation waits for: the DNS records to
// create, the validation mail to answer, or ACM to give the records.
func pendingMessage(cert *types.CertificateDetail) string {
	var records, mailed []string
	preparing := false
	for _, v := range cert.DomainValidationOptions {
		if v.ValidationStatus == types.DomainStatusSuccess {
			continue
		}
		switch r := v.ResourceRecord; {
		case v.ValidationMethod == types.ValidationMethodEmail:
			if d := aws.ToString(v.ValidationDomain); !slices.Contains(mailed, d) {
				mailed = append(mailed, d)
			}
		case r == nil:
			preparing = true
		default:
			// A wildcard name and its base share one record.
			if rec := fmt.Sprintf("%s %s with value %s", r.Type, aws.ToString(r.Name), aws.ToString(r.Value)); !slices.Contains(records, rec) {
				records = append(records, rec)
			}
		}
	}
	switch {
	case len(mailed) > 0:
		return fmt.Sprintf("pending validation: answer the validation mail ACM sent to the administrative addresses of %s "+
			"(status.domainValidationOptions lists them)", strings.Join(mailed, ", "))
	case len(records) > 0:
		shown := records[:min(len(records), shownRecords)]
		more := ""
		if n := len(records) - len(shown); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		return fmt.Sprintf("pending validation: create the DNS records %s%s (status.domainValidationOptions lists them); "+
			"ACM issues the certificate once it sees them", strings.Join(shown, ", "), more)
	case preparing:
		return "pending validation: ACM is preparing the DNS validation records"
	}
	return "pending validation"
}
