// Package iam emulates AWS Identity and Access Management over the awsQuery protocol (API version
// 2010-05-08): roles, customer managed policies with their versions, a catalogue of AWS managed
// policies, role attachments, inline role policies, permissions boundaries, instance profiles,
// OpenID Connect providers and the tags of roles, policies, instance profiles and OIDC providers.
//
// IAM is global: the state belongs to the caller's account, whatever region the request is signed
// for, so a role created through us-east-1 is seen through eu-west-1. Names of roles, managed
// policies and instance profiles are unique within an account without regard to case, as on AWS,
// and are found without regard to case. Tag keys too are compared without regard to case and
// keep the case they were given.
//
// AWS's IAM is eventually consistent; the emulator is immediately consistent, unless the
// ReadAfterCreateDelay fault is set on IAM.CreateRole, IAM.CreatePolicy or
// IAM.CreateInstanceProfile: then the new entity answers NoSuchEntity to every call that names it
// (reads, attachments, deletion) until the delay has passed on the simulation clock, while
// creating it again still answers EntityAlreadyExists.
//
// Policy documents are checked as document.go describes; they are kept as sent and returned
// URL-encoded (RFC 3986), as AWS returns them. Whitespace does not count towards the size quotas:
// 2,048 characters for a trust policy, 6,144 for a managed policy version and 10,240 for all the
// inline policies of a role together.
//
// Quotas, with AWS's defaults: 10 managed policies attached to a role, 5 versions of a managed
// policy, one role in an instance profile, 50 tags a resource, 1,000 roles, 1,500 customer
// managed policies, 1,000 instance profiles and 100 OpenID Connect providers an account, 100
// client IDs and 5 thumbprints an OIDC provider. An OIDC provider's URL is found without regard
// to case (AWS compares its path with case); its thumbprints are not checked against the
// issuer's certificate, and no request is made to the issuer.
//
// Simplifications: principals in trust policies are not checked for existence, so a trust policy
// naming a role or account that does not exist is accepted (AWS answers MalformedPolicyDocument
// "Invalid principal in policy"). AWS managed policies have their default version only; their
// documents are AWS's, except ReadOnlyAccess's, which is abridged to a few wildcard actions, and
// their policy IDs are stable but not AWS's. They cannot be changed or deleted (AccessDenied).
// ListPolicies ignores PolicyUsageFilter. RoleLastUsed is always empty. Users, groups,
// service-linked roles and the other IAM entities are not emulated. What a role may do, as the
// services that act with one ask it (RolePermits, for Lambda's event source mappings), is
// decided by its inline and attached managed policies within its permissions boundary, as
// core.Evaluate evaluates them: a statement with a Condition never matches, and resource-based
// policies, service control policies and session policies are not consulted.
package iam

import (
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// Account quotas, at AWS's defaults (IAM User Guide, IAM and AWS STS quotas).
const (
	maxRoles            = 1000
	maxPolicies         = 1500
	maxProfiles         = 1000
	maxAttachedPolicies = 10
	maxPolicyVersions   = 5
)

// Backend holds the IAM entities of every account.
type Backend struct {
	clock *core.Clock
	state *core.Backend[*account] // one account state, whatever the region
}

// account is what one account has in IAM. IAM is global, so there is one per account, kept in
// a global core.Backend.
type account struct {
	id       string
	roles    map[string]*role         // by lower-case name
	policies map[string]*policy       // customer managed, by lower-case name
	profiles map[string]*profile      // by lower-case name
	oidc     map[string]*oidcProvider // OpenID Connect providers, by lower-case URL without https://
	tags     *core.Tags               // of roles, policies, instance profiles and OIDC providers, by ARN
}

// newAccount returns the empty IAM state of the account of scope.
func newAccount(scope core.Scope) *account {
	return &account{id: scope.Account, roles: map[string]*role{}, policies: map[string]*policy{},
		profiles: map[string]*profile{}, oidc: map[string]*oidcProvider{}, tags: core.NewTags(tagRules)}
}

// New returns an empty IAM backend on clock.
func New(clock *core.Clock) *Backend {
	return &Backend{clock: clock, state: core.NewGlobalBackend(newAccount)}
}

// Service describes IAM to the router.
func (b *Backend) Service() *core.Service {
	s := core.QueryService("iam", "IAM", "iam", "2010-05-08", models.MustLoad("iam"))
	s.XMLNamespace = "https://iam.amazonaws.com/doc/2010-05-08/"
	return s.Declare(0, b.dump, b.operations(), b.tagOperations())
}

// noSuchEntity returns IAM's NoSuchEntity error (HTTP 404) with a formatted message.
func noSuchEntity(format string, args ...any) *core.APIError {
	return core.NotFoundf("NoSuchEntity", format, args...)
}

// alreadyExists returns IAM's EntityAlreadyExists error (HTTP 409) with a formatted message.
func alreadyExists(format string, args ...any) *core.APIError {
	return &core.APIError{Code: "EntityAlreadyExists", Message: fmt.Sprintf(format, args...), Status: http.StatusConflict}
}

// deleteConflict returns IAM's DeleteConflict error (HTTP 409) with a message.
func deleteConflict(message string) *core.APIError {
	return &core.APIError{Code: "DeleteConflict", Message: message, Status: http.StatusConflict}
}

// limitExceeded returns IAM's LimitExceeded error (HTTP 409) with a formatted message.
func limitExceeded(format string, args ...any) *core.APIError {
	return &core.APIError{Code: "LimitExceeded", Message: fmt.Sprintf(format, args...), Status: http.StatusConflict}
}

// quotaExceeded returns the LimitExceeded error AWS gives for a quota, such as "Cannot exceed
// quota for PoliciesPerRole: 10".
func quotaExceeded(quota string, limit int) *core.APIError {
	return limitExceeded("Cannot exceed quota for %s: %d", quota, limit)
}

// invalidInput returns IAM's InvalidInput error with a formatted message.
func invalidInput(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidInput", format, args...)
}

// validationError returns the ValidationError AWS gives a parameter that breaks a constraint of
// the API model: value is the parameter's value, member its name in lower camel case.
func validationError(value any, member, constraint string) *core.APIError {
	return core.Errorf("ValidationError", "1 validation error detected: Value '%v' at '%s' failed to satisfy constraint: %s", value, member, constraint)
}

// accessDenied returns the AccessDenied error (HTTP 403) for an action the caller may not take on
// a resource, such as changing an AWS managed policy.
func accessDenied(call *core.Call, action, resource string) *core.APIError {
	return &core.APIError{Code: "AccessDenied", Status: http.StatusForbidden,
		Message: fmt.Sprintf("User: arn:aws:iam::%s:user/emulator is not authorized to perform: iam:%s on resource: %s", call.Account, action, resource)}
}

// listing is the paging part of an IAM List operation's answer.
type listing struct {
	truncated bool
	marker    *string
}

// page returns the page of items that a List request's Marker and MaxItems (1 to 1,000, 100 by
// default) select, and whether more follow with the Marker of the next page.
func page[T any](items []T, marker *string, maxItems *int32) ([]T, listing, error) {
	size := int32(100)
	if maxItems != nil {
		if *maxItems < 1 || *maxItems > 1000 {
			return nil, listing{}, validationError(*maxItems, "maxItems", "Member must have value between 1 and 1000")
		}
		size = *maxItems
	}
	out, next, ok := core.Page(items, aws.ToString(marker), int(size))
	if !ok {
		return nil, listing{}, validationError(aws.ToString(marker), "marker", "Member must be a marker that an earlier answer returned")
	}
	if next == "" {
		return out, listing{}, nil
	}
	return out, listing{truncated: true, marker: aws.String(next)}, nil
}

// listPage returns one page, as a List request's Marker and MaxItems select it, of the entities
// among candidates that keep selects, sorted by name and described by view, and the listing.
func listPage[E named, V any](candidates []E, keep func(E) bool, marker *string, maxItems *int32, view func(E) V) ([]V, listing, error) {
	var selected []E
	for _, e := range candidates {
		if keep(e) {
			selected = append(selected, e)
		}
	}
	sort.SliceStable(selected, func(i, j int) bool { return key(selected[i].base().name) < key(selected[j].base().name) })
	selected, l, err := page(selected, marker, maxItems)
	if err != nil {
		return nil, listing{}, err
	}
	views := make([]V, 0, len(selected))
	for _, e := range selected {
		views = append(views, view(e))
	}
	return views, l, nil
}

// visibleAfter returns when an entity a call creates becomes visible to other calls: at once,
// unless the call's fault delays reads after creation (eventual consistency).
func visibleAfter(call *core.Call) time.Time {
	return call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay))
}

// dump returns every account's roles, customer managed policies and instance profiles, for the
// state endpoint.
func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, a := range b.state.All() {
		roles := map[string]any{}
		for _, k := range core.SortedKeys(a.roles) {
			r := a.roles[k]
			attached := []string{}
			for _, p := range r.attached {
				attached = append(attached, p.arn)
			}
			roles[r.name] = map[string]any{"arn": r.arn, "id": r.id, "attached": attached, "inline": core.SortedKeys(r.inline),
				"boundary": r.boundary, "tags": a.tags.Map(r.arn)}
		}
		policies := map[string]any{}
		for _, k := range core.SortedKeys(a.policies) {
			p := a.policies[k]
			policies[p.name] = map[string]any{"arn": p.arn, "id": p.id, "defaultVersion": p.defaultVersion, "versions": core.SortedKeys(p.versions)}
		}
		profiles := map[string]any{}
		for _, k := range core.SortedKeys(a.profiles) {
			p := a.profiles[k]
			profiles[p.name] = map[string]any{"arn": p.arn, "id": p.id, "role": p.role}
		}
		oidc := map[string]any{}
		for _, k := range core.SortedKeys(a.oidc) {
			p := a.oidc[k]
			oidc[p.name] = map[string]any{"arn": p.arn, "clientIDs": p.clientIDs, "thumbprints": p.thumbprints}
		}
		out[scope.Account] = map[string]any{"roles": roles, "policies": policies, "instanceProfiles": profiles, "oidcProviders": oidc}
	}
	return out
}
