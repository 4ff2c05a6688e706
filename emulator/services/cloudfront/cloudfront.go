// Package cloudfront emulates Amazon CloudFront over its REST-XML protocol (API version
// 2020-05-31): distributions (CreateDistribution, CreateDistributionWithTags, GetDistribution,
// GetDistributionConfig, UpdateDistribution, DeleteDistribution, ListDistributions), origin
// access controls, the catalogue of AWS managed cache and origin request policies, and tags.
//
// CloudFront is global: the state belongs to the caller's account whatever region the request
// is signed for (the SDK signs for us-east-1), and aliases (CNAMEs) are unique across every
// account, as on AWS. Ids are "E" and 13 upper-case letters and digits, domain names
// d<13 lower-case characters>.cloudfront.net, and ARNs arn:aws:cloudfront::<account>:distribution/<id>.
//
// Optimistic locking is AWS's: every read answers the resource's current ETag, every change
// makes a new one, and UpdateDistribution, DeleteDistribution, UpdateOriginAccessControl and
// DeleteOriginAccessControl need it in If-Match (InvalidIfMatchVersion when it is missing,
// PreconditionFailed when it is stale). CreateDistribution is idempotent on CallerReference: the
// same reference with the same configuration answers the existing distribution, with another
// configuration DistributionAlreadyExists.
//
// A distribution is InProgress after each create or update and Deployed once the service's
// transition time (TransitionTime, 5s by default; Options.Transitions["CloudFront"] changes it,
// zero makes it immediate) has passed on the simulation clock. It can be deleted only when
// disabled and Deployed (DistributionNotDisabled otherwise).
//
// Configurations are checked as validate.go describes: quantities against their items, origins
// (unique ids, one kind of origin config, origin access controls that exist and are not mixed
// with an origin access identity), cache behaviours (an origin that exists, a cache policy or
// legacy forwarded values, policies that exist), aliases and the viewer certificate (an alias
// needs an ACM certificate in us-east-1 that is issued in the emulated ACM and covers it, or an
// IAM certificate id), price class, HTTP version, logging, default root object and web ACL id.
// The answer carries AWS's defaults for what the request left out.
//
// Only the AWS managed cache and origin request policies exist (ListCachePolicies and
// ListOriginRequestPolicies with Type=custom list none); their ids and settings are AWS's.
// Not emulated: custom policies, response headers policies, invalidations, origin access
// identities, functions, key groups, continuous deployment, staging distributions, tenants,
// origin groups beyond storing them, field-level encryption and real-time logs; certificates
// used by a distribution are not reported in ACM's InUseBy. Every other operation answers the
// protocol's unknown-operation error.
package cloudfront

import (
	"fmt"
	"net/http"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long a created or updated distribution stays InProgress on the
// simulation clock by default.
const TransitionTime = 5 * time.Second

// certificateRegion is the only region whose ACM certificates CloudFront serves.
const certificateRegion = "us-east-1"

// Certificates is what CloudFront needs of the emulated ACM: the names an issued certificate
// covers. The ACM backend implements it.
type Certificates interface {
	IssuedNames(scope core.Scope, arn string, now time.Time) (names []string, ok bool)
}

// Backend holds the distributions and origin access controls of every account.
type Backend struct {
	clock   *core.Clock
	certs   Certificates
	state   *core.Backend[*account]
	aliases map[string]string // distribution ARN by alias (lower case), across accounts
}

// account is what one account has in CloudFront. CloudFront is global, so there is one per
// account, kept in a global core.Backend.
type account struct {
	distributions map[string]*distribution  // by id
	controls      map[string]*accessControl // by id
	tags          *core.Tags                // of distributions, by ARN
}

// New returns an empty CloudFront backend on clock that checks viewer certificates against the
// emulated ACM.
func New(clock *core.Clock, certs Certificates) *Backend {
	return &Backend{clock: clock, certs: certs, aliases: map[string]string{},
		state: core.NewGlobalBackend(func(core.Scope) *account {
			return &account{distributions: map[string]*distribution{},
				controls: map[string]*accessControl{}, tags: core.NewTags(tagRules)}
		})}
}

// Service describes CloudFront to the router.
func (b *Backend) Service() *core.Service {
	s := core.RESTService("cloudfront", "CloudFront", core.ProtocolRESTXML, models.MustLoad("cloudfront"),
		&core.APIError{Code: "Throttling", Status: http.StatusBadRequest, Message: "Rate exceeded"})
	s.XMLNamespace = "http://cloudfront.amazonaws.com/doc/2020-05-31/"
	// CloudFront wraps its errors in <ErrorResponse>, unlike S3.
	s.WrappedErrors = true
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

// dump returns every distribution and origin access control, for debugging.
func (b *Backend) dump() any {
	now := b.clock.Now()
	out := map[string]any{}
	for scope, a := range b.state.All() {
		for id, d := range a.distributions {
			out[fmt.Sprintf("%s/distribution/%s", scope.Account, id)] = d.view(now)
		}
		for id, c := range a.controls {
			out[fmt.Sprintf("%s/origin-access-control/%s", scope.Account, id)] = c.view()
		}
		out[scope.Account+"/tags"] = a.tags
	}
	return out
}
