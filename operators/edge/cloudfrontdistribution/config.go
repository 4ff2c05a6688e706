package cloudfrontdistribution

import (
	"encoding/json"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Defaults CloudFront applies to what the spec leaves out, and what the driver sets on the
// parts it creates.
const (
	certificateRegion = "us-east-1"
	defaultPriceClass = types.PriceClassPriceClassAll
	defaultHTTP       = types.HttpVersionHttp2
)

// bucketOrigins is what the spec's S3 origins need beyond the spec: the region of their
// buckets (the provider's) and the id of the distribution's origin access control.
type bucketOrigins struct {
	region, controlID string
}

// desired returns cur (AWS's configuration; a new one for a create) with the spec applied, and
// the spec fields that differ from cur. A field is changed only when its meaning differs, so
// that the defaults AWS filled in never read as drift.
func desired(d *v1alpha1.CloudFrontDistribution, cur *types.DistributionConfig, ids policyIDs, buckets bucketOrigins) (*types.DistributionConfig, []string, error) {
	cfg := clone(cur)
	s := &d.Spec
	var fields []string
	set := func(field string, differs bool, apply func()) {
		if differs {
			apply()
			fields = append(fields, field)
		}
	}
	set("comment", aws.ToString(cfg.Comment) != s.Comment, func() { cfg.Comment = aws.String(s.Comment) })
	enabled := s.Enabled == nil || *s.Enabled
	set("enabled", aws.ToBool(cfg.Enabled) != enabled, func() { cfg.Enabled = aws.Bool(enabled) })
	origins := desiredOrigins(s.Origins, cfg.Origins, buckets)
	set("origins", !sameJSON(origins, cfg.Origins), func() { cfg.Origins = origins })
	def, err := desiredDefaultBehavior(s.DefaultCacheBehavior, cfg.DefaultCacheBehavior, ids)
	if err != nil {
		return nil, nil, err
	}
	set("defaultCacheBehavior", !sameJSON(def, cfg.DefaultCacheBehavior), func() { cfg.DefaultCacheBehavior = def })
	ordered, err := desiredBehaviors(s.OrderedCacheBehaviors, cfg.CacheBehaviors, ids)
	if err != nil {
		return nil, nil, err
	}
	set("orderedCacheBehaviors", !sameJSON(ordered, cfg.CacheBehaviors), func() { cfg.CacheBehaviors = ordered })
	var aliases []string
	if cfg.Aliases != nil {
		aliases = cfg.Aliases.Items
	}
	set("aliases", !managed.SameSet(lower(aliases), lower(s.Aliases)), func() {
		cfg.Aliases = &types.Aliases{Quantity: aws.Int32(int32(len(s.Aliases))), Items: s.Aliases}
	})
	vc, err := desiredCertificate(s.ViewerCertificate, cfg.ViewerCertificate)
	if err != nil {
		return nil, nil, err
	}
	set("viewerCertificate", vc != cfg.ViewerCertificate, func() { cfg.ViewerCertificate = vc })
	price := types.PriceClass(or(s.PriceClass, string(defaultPriceClass)))
	set("priceClass", cfg.PriceClass != price, func() { cfg.PriceClass = price })
	set("webACLID", aws.ToString(cfg.WebACLId) != s.WebACLID, func() { cfg.WebACLId = aws.String(s.WebACLID) })
	logging := desiredLogging(s.Logging)
	set("logging", !sameLogging(logging, cfg.Logging), func() { cfg.Logging = logging })
	http := types.HttpVersion(or(s.HTTPVersion, string(defaultHTTP)))
	set("httpVersion", cfg.HttpVersion != http, func() { cfg.HttpVersion = http })
	set("defaultRootObject", aws.ToString(cfg.DefaultRootObject) != s.DefaultRootObject, func() { cfg.DefaultRootObject = aws.String(s.DefaultRootObject) })
	return cfg, fields, nil
}

// newConfig returns the configuration a create starts from: the object's UID as
// CallerReference (so that a create made again answers the same distribution), and the
// members CloudFront requires, which desired fills in.
func newConfig(d *v1alpha1.CloudFrontDistribution) *types.DistributionConfig {
	return &types.DistributionConfig{
		CallerReference:      aws.String(string(d.GetUID())),
		Comment:              aws.String(""),
		Enabled:              aws.Bool(false),
		DefaultCacheBehavior: &types.DefaultCacheBehavior{},
	}
}

// desiredOrigins returns the spec's origins as CloudFront takes them, each built on the origin
// of the same id in cur (so that the settings the spec does not hold keep AWS's values): an S3
// origin by the bucket's regional domain name, read through the origin access control, any
// other as a custom origin without one.
func desiredOrigins(spec []v1alpha1.DistributionOrigin, cur *types.Origins, buckets bucketOrigins) *types.Origins {
	existing := map[string]types.Origin{}
	if cur != nil {
		for _, o := range cur.Items {
			existing[aws.ToString(o.Id)] = o
		}
	}
	items := make([]types.Origin, 0, len(spec))
	for _, s := range spec {
		o := *clone(ptr(existing[s.ID]))
		o.Id = aws.String(s.ID)
		if aws.ToString(o.OriginPath) != s.OriginPath {
			o.OriginPath = aws.String(s.OriginPath)
		}
		o.VpcOriginConfig = nil
		if s.S3BucketRef != nil {
			o.DomainName, o.OriginAccessControlId = aws.String(bucketDomainName(s.S3BucketName, buckets.region)), aws.String(buckets.controlID)
			o.CustomOriginConfig = nil
			if o.S3OriginConfig == nil {
				o.S3OriginConfig = &types.S3OriginConfig{}
			}
			o.S3OriginConfig.OriginAccessIdentity = aws.String("") // the legacy identity, replaced by the control
			items = append(items, o)
			continue
		}
		o.DomainName, o.S3OriginConfig = aws.String(s.DomainName), nil
		if aws.ToString(o.OriginAccessControlId) != "" {
			o.OriginAccessControlId = aws.String("")
		}
		if o.CustomOriginConfig == nil {
			o.CustomOriginConfig = &types.CustomOriginConfig{}
		}
		c := o.CustomOriginConfig
		c.HTTPPort, c.HTTPSPort = aws.Int32(or32(s.HTTPPort, 80)), aws.Int32(or32(s.HTTPSPort, 443))
		c.OriginProtocolPolicy = types.OriginProtocolPolicy(or(s.ProtocolPolicy, string(types.OriginProtocolPolicyHttpsOnly)))
		items = append(items, o)
	}
	return &types.Origins{Quantity: aws.Int32(int32(len(items))), Items: items}
}

// behavior points at the fields a default and an ordered cache behaviour share, which the SDK
// declares in two types.
type behavior struct {
	target        **string
	viewer        *types.ViewerProtocolPolicy
	methods       **types.AllowedMethods
	compress      **bool
	cachePolicy   **string
	originRequest **string
}

// apply sets the behaviour's fields that differ from the spec's.
func (b behavior) apply(s v1alpha1.CacheBehaviorSettings, ids policyIDs, field string) error {
	cache, err := lookup(ids.cache, field+".cachePolicy", or(s.CachePolicy, "CachingOptimized"))
	if err != nil {
		return err
	}
	originRequest := ""
	if s.OriginRequestPolicy != "" {
		if originRequest, err = lookup(ids.origin, field+".originRequestPolicy", s.OriginRequestPolicy); err != nil {
			return err
		}
	}
	*b.target = aws.String(s.TargetOriginID)
	*b.viewer = types.ViewerProtocolPolicy(or(s.ViewerProtocolPolicy, string(types.ViewerProtocolPolicyRedirectToHttps)))
	methods := s.AllowedMethods
	if len(methods) == 0 {
		methods = []string{"GET", "HEAD"}
	}
	if cur := *b.methods; cur == nil || !managed.SameSet(methodNames(cur.Items), methods) {
		items := make([]types.Method, len(methods))
		for i, m := range methods {
			items[i] = types.Method(m)
		}
		*b.methods = &types.AllowedMethods{Quantity: aws.Int32(int32(len(items))), Items: items,
			CachedMethods: &types.CachedMethods{Quantity: aws.Int32(2), Items: []types.Method{types.MethodGet, types.MethodHead}}}
	}
	compress := s.Compress == nil || *s.Compress
	if aws.ToBool(*b.compress) != compress {
		*b.compress = aws.Bool(compress)
	}
	*b.cachePolicy = aws.String(cache)
	if aws.ToString(*b.originRequest) != originRequest {
		*b.originRequest = aws.String(originRequest)
	}
	return nil
}

// desiredDefaultBehavior returns the spec's default cache behaviour built on cur.
func desiredDefaultBehavior(s v1alpha1.CacheBehaviorSettings, cur *types.DefaultCacheBehavior, ids policyIDs) (*types.DefaultCacheBehavior, error) {
	b := clone(cur)
	if b == nil {
		b = &types.DefaultCacheBehavior{}
	}
	err := behavior{&b.TargetOriginId, &b.ViewerProtocolPolicy, &b.AllowedMethods, &b.Compress, &b.CachePolicyId, &b.OriginRequestPolicyId}.
		apply(s, ids, "defaultCacheBehavior")
	return b, err
}

// desiredBehaviors returns the spec's ordered cache behaviours, each built on the behaviour of
// the same path pattern in cur.
func desiredBehaviors(spec []v1alpha1.OrderedCacheBehavior, cur *types.CacheBehaviors, ids policyIDs) (*types.CacheBehaviors, error) {
	existing := map[string]types.CacheBehavior{}
	if cur != nil {
		for _, b := range cur.Items {
			existing[aws.ToString(b.PathPattern)] = b
		}
	}
	var items []types.CacheBehavior // none is Quantity 0 without Items, as AWS answers it
	for _, s := range spec {
		b := *clone(ptr(existing[s.PathPattern]))
		b.PathPattern = aws.String(s.PathPattern)
		field := "orderedCacheBehaviors[" + s.PathPattern + "]"
		if err := (behavior{&b.TargetOriginId, &b.ViewerProtocolPolicy, &b.AllowedMethods, &b.Compress, &b.CachePolicyId, &b.OriginRequestPolicyId}).
			apply(s.CacheBehaviorSettings, ids, field); err != nil {
			return nil, err
		}
		items = append(items, b)
	}
	return &types.CacheBehaviors{Quantity: aws.Int32(int32(len(items))), Items: items}, nil
}

// desiredCertificate returns cur when it already serves what the spec asks (so that AWS's
// defaults stay), or the viewer certificate to set: CloudFront's own without a spec
// certificate, else the ACM certificate with SNI and the minimum protocol version. A
// certificate outside us-east-1 is terminal: CloudFront serves no other.
func desiredCertificate(s *v1alpha1.ViewerCertificate, cur *types.ViewerCertificate) (*types.ViewerCertificate, error) {
	if s == nil {
		if cur != nil && aws.ToBool(cur.CloudFrontDefaultCertificate) {
			return cur, nil
		}
		return &types.ViewerCertificate{CloudFrontDefaultCertificate: aws.Bool(true)}, nil
	}
	if a, err := arn.Parse(s.ACMCertificateARN); err != nil || a.Region != certificateRegion {
		return nil, managed.Terminal(condition.ReasonInvalidSpec, "viewerCertificate %s is not an ACM certificate in %s, the only region CloudFront serves certificates from: "+
			"request the certificate with a provider of region %s", s.ACMCertificateARN, certificateRegion, certificateRegion)
	}
	version := types.MinimumProtocolVersion(or(s.MinimumProtocolVersion, string(types.MinimumProtocolVersionTLSv122021)))
	if cur != nil && aws.ToString(cur.ACMCertificateArn) == s.ACMCertificateARN && cur.MinimumProtocolVersion == version && cur.SSLSupportMethod == types.SSLSupportMethodSniOnly {
		return cur, nil
	}
	return &types.ViewerCertificate{ACMCertificateArn: aws.String(s.ACMCertificateARN), SSLSupportMethod: types.SSLSupportMethodSniOnly, MinimumProtocolVersion: version}, nil
}

// desiredLogging returns the logging configuration the spec asks for.
func desiredLogging(s *v1alpha1.DistributionLogging) *types.LoggingConfig {
	if s == nil {
		return &types.LoggingConfig{Enabled: aws.Bool(false), IncludeCookies: aws.Bool(false), Bucket: aws.String(""), Prefix: aws.String("")}
	}
	return &types.LoggingConfig{Enabled: aws.Bool(true), IncludeCookies: aws.Bool(s.IncludeCookies), Bucket: aws.String(s.Bucket), Prefix: aws.String(s.Prefix)}
}

// sameLogging reports whether two logging configurations mean the same: both off, or both on
// with the same bucket, prefix and cookie choice.
func sameLogging(a, b *types.LoggingConfig) bool {
	on := func(l *types.LoggingConfig) bool { return l != nil && aws.ToBool(l.Enabled) }
	if !on(a) || !on(b) {
		return on(a) == on(b)
	}
	return aws.ToString(a.Bucket) == aws.ToString(b.Bucket) && aws.ToString(a.Prefix) == aws.ToString(b.Prefix) &&
		aws.ToBool(a.IncludeCookies) == aws.ToBool(b.IncludeCookies)
}

// methodNames returns HTTP methods as strings.
func methodNames(ms []types.Method) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}

// lower returns domain names in lower case: DNS names compare without regard to case.
func lower(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}

// or returns v, or def when v is empty.
func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// or32 returns v, or def when v is zero.
func or32(v, def int32) int32 {
	if v == 0 {
		return def
	}
	return v
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// clone returns a deep copy of an SDK structure through its JSON form (the SDK's types hold
// only exported data fields); nil stays nil.
func clone[T any](v *T) *T {
	if v == nil {
		return nil
	}
	out := new(T)
	b, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(b, out)
	}
	if err != nil {
		panic("cloudfrontdistribution: copy " + err.Error())
	}
	return out
}

// sameJSON reports whether two SDK structures hold the same data.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
