// Package acm emulates AWS Certificate Manager over its JSON protocol: public certificates
// requested with DNS or email validation, imported certificates (PEM certificate, private key and
// chain, checked with crypto/x509, and reimported into the same ARN with the same key
// algorithm), their description, listing with filters and paging, retrieval as PEM, their
// transparency logging preference (UpdateCertificateOptions), deletion, and tags.
//
// A requested certificate is PENDING_VALIDATION, with the CNAME record (DNS) or the addresses
// (EMAIL) AWS would ask for, for at least the service's transition time on the simulation clock
// (TransitionTime, 3s by default; Options.Transitions["ACM"] changes it). A name that a public
// hosted zone of the emulated Route 53 holds (ValidateThrough) is validated, as AWS validates it
// through public DNS, only once that zone has its validation CNAME record with ACM's value; the
// certificate stays PENDING_VALIDATION until then, and each such name's ValidationStatus turns
// SUCCESS when its record is found. The emulator can see neither other DNS nor mailboxes: other
// names are validated once the transition time has passed, as if the record had been created or
// the mail answered at once. The certificate is ISSUED when every name is validated. An issued certificate is valid for 13
// months (395 days) from its issue, the validity ACM has given its public certificates; it is
// EXPIRED after that, as is an imported certificate after its NotAfter. GetCertificate returns a
// certificate the emulator makes on first use, signed by a certificate authority of its own (not
// Amazon's). The emulated ELBv2 records the load balancers whose listeners use a certificate
// (SetInUseBy): they are its InUseBy, and DeleteCertificate refuses to delete it meanwhile, with
// ResourceInUseException. Private certificates (CertificateAuthorityArn), exports, renewals,
// revocation and ACME are not emulated.
package acm

import (
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// TransitionTime is how long a requested certificate stays PENDING_VALIDATION on the simulation
// clock by default.
const TransitionTime = 3 * time.Second

// Backend holds the certificates of every account and region.
type Backend struct {
	clock *core.Clock
	state *core.Backend[*region]
	tags  *core.Tags // by certificate ARN
	dns   DNS        // the emulated public DNS, set by ValidateThrough
}

// region is what one account has in one region: its certificates by ARN, and the idempotency
// tokens of its certificate requests.
type region struct {
	certs  map[string]*certificate
	tokens map[string]token
}

// token is a RequestCertificate idempotency token: the certificate it requested, until it
// expires an hour after the request.
type token struct {
	arn     string
	expires time.Time
}

// New returns an empty ACM backend on clock.
func New(clock *core.Clock) *Backend {
	return &Backend{clock: clock, tags: core.NewTags(tagRules),
		state: core.NewBackend(func(core.Scope) *region {
			return &region{certs: map[string]*certificate{}, tokens: map[string]token{}}
		})}
}

// Service describes ACM to the router.
func (b *Backend) Service() *core.Service {
	s := core.JSONService("acm", "ACM", "CertificateManager")
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

// SetInUseBy records the resources, such as load balancers, that use a certificate of scope:
// DescribeCertificate reports them in InUseBy and DeleteCertificate refuses to delete the
// certificate while there are any. It reports whether the certificate exists. The services that
// attach certificates call it.
func (b *Backend) SetInUseBy(scope core.Scope, arn string, users []string) bool {
	return core.With(b.state, scope, func(r *region) bool {
		c, ok := r.certs[arn]
		if ok {
			c.inUseBy = slices.Clone(users)
		}
		return ok
	})
}

// Has reports whether ACM has the certificate arn in scope. The services that name
// certificates without ACM reporting their use (API Gateway's domain names) call it.
func (b *Backend) Has(scope core.Scope, arn string) bool {
	return core.With(b.state, scope, func(r *region) bool {
		_, ok := r.certs[arn]
		return ok
	})
}

// certificateARN is the form of a certificate ARN.
var certificateARN = regexp.MustCompile(`^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate/[A-Za-z0-9-]+$`)

// invalidARN is the answer to a CertificateArn that is not a certificate ARN.
func invalidARN(arn string) error {
	return core.Errorf("InvalidArnException", "The ARN %s is not a valid certificate ARN.", arn)
}

// notFound is the answer to the ARN of a certificate the account does not have in the region.
func notFound(call *core.Call, arn string) error {
	return core.Errorf("ResourceNotFoundException", "Could not find certificate %s in account %s.", arn, call.Account)
}

// validation is the ValidationException AWS answers a request that breaks a constraint.
func validation(format string, args ...any) error {
	return core.Errorf("ValidationException", format, args...)
}

// lookup returns the certificate an ARN names in r, the call's region, brought up to date with the
// simulation clock. A certificate that the read-after-create fault still hides is not found. The
// caller holds the backend's mutex.
func lookup(r *region, call *core.Call, arn *string) (*certificate, error) {
	key := aws.ToString(arn)
	if !certificateARN.MatchString(key) {
		return nil, invalidARN(key)
	}
	c, ok := r.certs[key]
	if !ok || call.Now.Before(c.readableAt) {
		return nil, notFound(call, key)
	}
	c.settle(call.Now)
	return c, nil
}

// dump returns the state of every certificate, for debugging.
func (b *Backend) dump() any {
	out := map[string]any{}
	now := b.clock.Now()
	for scope, r := range b.state.All() {
		for arn, c := range r.certs {
			c.settle(now)
			out[fmt.Sprintf("%s/%s/%s", scope.Account, scope.Region, arn)] = c.detail()
		}
	}
	return out
}
