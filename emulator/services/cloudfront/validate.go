package cloudfront

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxComment is the longest distribution comment CloudFront accepts, in characters.
const maxComment = 128

var (
	// aliasName is the form of an alternate domain name: DNS labels, the first of which may be
	// the wildcard *.
	aliasName = regexp.MustCompile(`^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$`)
	// acmARN is the form of an ACM certificate ARN; its fourth field is the region.
	acmARN = regexp.MustCompile(`^arn:aws[a-z-]*:acm:([a-z0-9-]+):(\d{12}):certificate/[A-Za-z0-9-]+$`)
	// logBucket is the form of a logging bucket: the bucket's S3 domain name.
	logBucket = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*\.s3(\.[a-z0-9-]+)?\.amazonaws\.com$`)
	// webACL is the form of a WAF web ACL CloudFront accepts: a WAFv2 web ACL of the global
	// (CLOUDFRONT) scope, or a WAF Classic web ACL id.
	webACL = regexp.MustCompile(`^(arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global/webacl/[A-Za-z0-9_-]{1,128}/[0-9a-f-]{36}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`)
)

// inconsistent is CloudFront's answer to a Quantity that is not the number of Items.
var inconsistent = core.Errorf("InconsistentQuantities", "The value of Quantity and the size of Items don't match.")

// invalidCertificate is CloudFront's answer to a viewer certificate it cannot use.
func invalidCertificate(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidViewerCertificate", format, args...)
}

// quantity checks a list's Quantity against its items.
func quantity(q *int32, n int) error {
	if int(aws.ToInt32(q)) != n {
		return inconsistent
	}
	return nil
}

// validate checks a distribution configuration, with its defaults applied, as CloudFront does
// on create and update: the account's origin access controls and the emulated ACM's
// certificates are looked up for the call.
func (b *Backend) validate(call *core.Call, a *account, c *types.DistributionConfig) error {
	if aws.ToString(c.CallerReference) == "" {
		return invalidArgument("The parameter CallerReference is required.")
	}
	if c.Enabled == nil {
		return invalidArgument("The parameter Enabled is required.")
	}
	if utf8.RuneCountInString(aws.ToString(c.Comment)) > maxComment {
		return invalidArgument("The parameter Comment is too long.")
	}
	if c.DefaultCacheBehavior == nil {
		return invalidArgument("The parameter DefaultCacheBehavior is required.")
	}
	if err := cmpQuantities(c); err != nil {
		return err
	}
	origins, err := validateOrigins(a, c.Origins)
	if err != nil {
		return err
	}
	for _, g := range c.OriginGroups.Items {
		origins = append(origins, aws.ToString(g.Id))
	}
	d := c.DefaultCacheBehavior
	if err := validateBehavior(origins, behavior{d.TargetOriginId, d.ViewerProtocolPolicy, d.CachePolicyId,
		d.OriginRequestPolicyId, d.ForwardedValues, d.AllowedMethods}); err != nil {
		return err
	}
	var patterns []string
	for _, cb := range c.CacheBehaviors.Items {
		p := aws.ToString(cb.PathPattern)
		if p == "" || slices.Contains(patterns, p) {
			return invalidArgument("The parameter PathPattern is required and must be unique among the cache behaviors: %q.", p)
		}
		patterns = append(patterns, p)
		if err := validateBehavior(origins, behavior{cb.TargetOriginId, cb.ViewerProtocolPolicy, cb.CachePolicyId,
			cb.OriginRequestPolicyId, cb.ForwardedValues, cb.AllowedMethods}); err != nil {
			return err
		}
	}
	if err := b.validateCertificate(call, c.ViewerCertificate, c.Aliases.Items); err != nil {
		return err
	}
	return validateSettings(c)
}

// cmpQuantities checks the Quantity of every list of a configuration against its items.
func cmpQuantities(c *types.DistributionConfig) error {
	if c.Origins == nil {
		return invalidArgument("The parameter Origins is required.")
	}
	checks := []error{quantity(c.Origins.Quantity, len(c.Origins.Items)), quantity(c.Aliases.Quantity, len(c.Aliases.Items)),
		quantity(c.CacheBehaviors.Quantity, len(c.CacheBehaviors.Items)), quantity(c.OriginGroups.Quantity, len(c.OriginGroups.Items)),
		quantity(c.CustomErrorResponses.Quantity, len(c.CustomErrorResponses.Items))}
	for _, o := range c.Origins.Items {
		checks = append(checks, quantity(o.CustomHeaders.Quantity, len(o.CustomHeaders.Items)))
	}
	for _, m := range append([]*types.AllowedMethods{c.DefaultCacheBehavior.AllowedMethods}, allowedMethods(c.CacheBehaviors.Items)...) {
		if m != nil {
			checks = append(checks, quantity(m.Quantity, len(m.Items)))
		}
	}
	if g := c.Restrictions.GeoRestriction; g != nil {
		checks = append(checks, quantity(g.Quantity, len(g.Items)))
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

// allowedMethods returns the allowed methods of the ordered cache behaviours.
func allowedMethods(behaviors []types.CacheBehavior) []*types.AllowedMethods {
	out := make([]*types.AllowedMethods, 0, len(behaviors))
	for _, cb := range behaviors {
		out = append(out, cb.AllowedMethods)
	}
	return out
}

// validateOrigins checks the origins of a configuration and returns their ids: at least one,
// each with a unique id, a domain name, exactly one kind of origin configuration, connection
// settings in range, and an origin access control of the account, which an origin access
// identity may not accompany.
func validateOrigins(a *account, origins *types.Origins) ([]string, error) {
	if len(origins.Items) == 0 {
		return nil, invalidArgument("The parameter Origins must contain at least one origin.")
	}
	var ids []string
	for _, o := range origins.Items {
		id := aws.ToString(o.Id)
		if id == "" || slices.Contains(ids, id) {
			return nil, invalidArgument("The parameter Origin Id must be present and unique: %q.", id)
		}
		ids = append(ids, id)
		if aws.ToString(o.DomainName) == "" {
			return nil, invalidArgument("The parameter origin name cannot be null or empty.")
		}
		kinds := 0
		for _, set := range []bool{o.S3OriginConfig != nil, o.CustomOriginConfig != nil, o.VpcOriginConfig != nil} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			return nil, invalidArgument("Exactly one of CustomOriginConfig, S3OriginConfig and VpcOriginConfig must be specified for origin %s.", id)
		}
		if n := aws.ToInt32(o.ConnectionAttempts); n < 1 || n > 3 {
			return nil, invalidArgument("The parameter ConnectionAttempts of origin %s must be between 1 and 3.", id)
		}
		if n := aws.ToInt32(o.ConnectionTimeout); n < 1 || n > 10 {
			return nil, invalidArgument("The parameter ConnectionTimeout of origin %s must be between 1 and 10.", id)
		}
		if p := aws.ToString(o.OriginPath); p != "" && (!strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/")) {
			return nil, invalidArgument("The parameter OriginPath of origin %s must begin with a slash and not end with one.", id)
		}
		oac := aws.ToString(o.OriginAccessControlId)
		if oac == "" {
			continue
		}
		if _, ok := a.controls[oac]; !ok {
			return nil, core.Errorf("InvalidOriginAccessControl", "The origin access control %s does not exist.", oac)
		}
		if o.S3OriginConfig != nil && aws.ToString(o.S3OriginConfig.OriginAccessIdentity) != "" {
			return nil, core.Errorf("IllegalOriginAccessConfiguration", "Origin %s cannot contain both an origin access control (OAC) and an origin access identity (OAI).", id)
		}
	}
	return ids, nil
}

// behavior is what validateBehavior checks of a default or ordered cache behaviour.
type behavior struct {
	target         *string
	viewerProtocol types.ViewerProtocolPolicy
	cachePolicy    *string
	requestPolicy  *string
	forwarded      *types.ForwardedValues
	methods        *types.AllowedMethods
}

// validateBehavior checks a cache behaviour: its target is an origin or origin group, it has a
// viewer protocol policy, a cache policy that exists or else the legacy forwarded values (not
// both), an origin request policy that exists, and allowed methods of the sets CloudFront
// offers.
func validateBehavior(origins []string, bh behavior) error {
	if !slices.Contains(origins, aws.ToString(bh.target)) {
		return notFound("NoSuchOrigin", "One or more of your origins or origin groups do not exist.")
	}
	if !slices.Contains(types.ViewerProtocolPolicy("").Values(), bh.viewerProtocol) {
		return invalidArgument("The parameter ViewerProtocolPolicy has an invalid value: %q.", bh.viewerProtocol)
	}
	cache := aws.ToString(bh.cachePolicy)
	switch {
	case cache == "" && bh.forwarded == nil:
		return invalidArgument("The parameter ForwardedValues is required.")
	case cache != "" && bh.forwarded != nil:
		return invalidArgument("The parameter ForwardedValues cannot be used when a cache policy is associated to the cache behavior.")
	case cache != "" && managedCachePolicy(cache) == nil:
		return noSuchCachePolicy()
	}
	if p := aws.ToString(bh.requestPolicy); p != "" && managedOriginRequestPolicy(p) == nil {
		return noSuchOriginRequestPolicy()
	}
	if bh.methods != nil && !validMethods(bh.methods.Items) {
		return invalidArgument("The parameter AllowedMethods must be GET and HEAD; GET, HEAD and OPTIONS; or all seven methods.")
	}
	return nil
}

// validMethods reports whether methods are one of the three sets CloudFront allows.
func validMethods(methods []types.Method) bool {
	set := slices.Sorted(slices.Values(methods))
	for _, allowed := range [][]types.Method{
		{types.MethodGet, types.MethodHead},
		{types.MethodGet, types.MethodHead, types.MethodOptions},
		{types.MethodDelete, types.MethodGet, types.MethodHead, types.MethodOptions, types.MethodPatch, types.MethodPost, types.MethodPut},
	} {
		if slices.Equal(set, slices.Sorted(slices.Values(allowed))) {
			return true
		}
	}
	return false
}

// validateCertificate checks the viewer certificate and the aliases it must cover: one kind of
// certificate; an ACM certificate in us-east-1 that the emulated ACM has issued to the caller's
// account, with an SSL support method; and, for aliases, a custom certificate whose names cover
// each of them (an IAM server certificate cannot be looked up and is trusted to).
func (b *Backend) validateCertificate(call *core.Call, vc *types.ViewerCertificate, aliases []string) error {
	acm, iam := aws.ToString(vc.ACMCertificateArn), aws.ToString(vc.IAMCertificateId)
	if aws.ToBool(vc.CloudFrontDefaultCertificate) && (acm != "" || iam != "") || acm != "" && iam != "" {
		return invalidCertificate("Specify exactly one of CloudFrontDefaultCertificate, ACMCertificateArn and IAMCertificateId.")
	}
	if !slices.Contains(types.MinimumProtocolVersion("").Values(), vc.MinimumProtocolVersion) {
		return invalidArgument("The parameter MinimumProtocolVersion has an invalid value: %q.", vc.MinimumProtocolVersion)
	}
	if (acm != "" || iam != "") && !slices.Contains(types.SSLSupportMethod("").Values(), vc.SSLSupportMethod) {
		return invalidCertificate("The parameter SSLSupportMethod is required with a custom certificate.")
	}
	var names []string
	if acm != "" {
		m := acmARN.FindStringSubmatch(acm)
		issued, ok := []string(nil), false
		if m != nil && m[1] == certificateRegion && m[2] == call.Account {
			issued, ok = b.certs.IssuedNames(core.Scope{Account: call.Account, Region: certificateRegion}, acm, call.Now)
		}
		if !ok {
			return invalidCertificate("The specified SSL certificate doesn't exist, isn't in us-east-1 region, isn't valid, or doesn't include a valid certificate chain.")
		}
		names = issued
	}
	for _, alias := range aliases {
		if !aliasName.MatchString(strings.ToLower(alias)) || len(alias) > 253 {
			return invalidArgument("The parameter CNAME contains one or more characters that are not valid: %q.", alias)
		}
		if acm == "" && iam == "" {
			return invalidCertificate("To add an alternate domain name (CNAME) to a CloudFront distribution, you must attach a trusted certificate that validates your authorization to use the domain name.")
		}
		if acm != "" && !slices.ContainsFunc(names, func(n string) bool { return covers(n, alias) }) {
			return invalidCertificate("The certificate that is attached to your distribution doesn't cover the alternate domain name (CNAME) that you're trying to add: %s.", alias)
		}
	}
	return nil
}

// covers reports whether a certificate name covers an alias: the same name, or a wildcard name
// one level above a name that is not itself a wildcard.
func covers(name, alias string) bool {
	name, alias = strings.ToLower(name), strings.ToLower(alias)
	if name == alias {
		return true
	}
	parent, ok := strings.CutPrefix(name, "*.")
	if !ok || strings.HasPrefix(alias, "*.") {
		return false
	}
	_, rest, found := strings.Cut(alias, ".")
	return found && rest == parent
}

// validateSettings checks the distribution-wide settings: price class, HTTP version, geographic
// restriction type, logging bucket, default root object and web ACL.
func validateSettings(c *types.DistributionConfig) error {
	if !slices.Contains(types.PriceClass("").Values(), c.PriceClass) {
		return invalidArgument("The parameter PriceClass has an invalid value: %q.", c.PriceClass)
	}
	if !slices.Contains(types.HttpVersion("").Values(), c.HttpVersion) {
		return invalidArgument("The parameter HttpVersion has an invalid value: %q.", c.HttpVersion)
	}
	if g := c.Restrictions.GeoRestriction; g == nil || !slices.Contains(types.GeoRestrictionType("").Values(), g.RestrictionType) ||
		(g.RestrictionType == types.GeoRestrictionTypeNone) != (len(g.Items) == 0) {
		return invalidArgument("The parameter GeoRestriction is invalid: none takes no locations, whitelist and blacklist need some.")
	}
	if l := c.Logging; aws.ToBool(l.Enabled) && !logBucket.MatchString(aws.ToString(l.Bucket)) {
		return invalidArgument("The parameter Logging Bucket must be the domain name of an S3 bucket (bucket.s3.amazonaws.com) when logging is enabled: %q.", aws.ToString(l.Bucket))
	}
	if r := aws.ToString(c.DefaultRootObject); strings.HasPrefix(r, "/") || len(r) > 255 {
		return core.Errorf("InvalidDefaultRootObject", "The specified default root object is invalid: %q.", r)
	}
	if w := aws.ToString(c.WebACLId); w != "" && !webACL.MatchString(w) {
		return core.Errorf("InvalidWebACLId", "A web ACL ID specified is not valid. To specify a web ACL created using the latest version of WAF, use the ACL ARN, "+
			"for example arn:aws:wafv2:us-east-1:123456789012:global/webacl/ExampleWebACL/473e64fd-f30b-4765-81a0-62ad96dd167a. "+
			"To specify a web ACL created using WAF Classic, use the ACL ID, for example 473e64fd-f30b-4765-81a0-62ad96dd167a.")
	}
	return nil
}
