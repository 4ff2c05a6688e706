package cloudfront

import (
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// managedSince is the LastModifiedTime the emulator gives every AWS managed policy.
var managedSince = time.Date(2022, time.June, 1, 0, 0, 0, 0, time.UTC)

// managedETag is the ETag of every AWS managed policy, which never changes.
const managedETag = "E23ZP02F085DFQ"

// params is what a cache policy puts in the cache key: the header, cookie and query string
// behaviours with their names, and whether compressed objects are cached.
type params struct {
	headers, cookies, queries            string
	headerNames, cookieNames, queryNames []string
	gzip, brotli                         bool
}

// cachePolicies are AWS's managed cache policies, with their documented ids and settings
// (CloudFront Developer Guide, Use managed cache policies), in id order.
var cachePolicies = sortedByID([]types.CachePolicy{
	cachePolicy("2e54312d-136d-493c-8eb9-b001f22f67d2", "Managed-Amplify", "Policy for Amplify Origin", 2, 2, 600,
		params{headers: "whitelist", headerNames: []string{"Authorization", "CloudFront-Viewer-Country", "Host"}, cookies: "all", queries: "all", gzip: true, brotli: true}),
	cachePolicy("4135ea2d-6df8-44a3-9df3-4b5a84be39ad", "Managed-CachingDisabled", "Policy with caching disabled", 0, 0, 0,
		params{headers: "none", cookies: "none", queries: "none"}),
	cachePolicy("658327ea-f89d-4fab-a63d-7e88639e58f6", "Managed-CachingOptimized", "Policy with caching enabled. Supports Gzip and Brotli compression.", 1, 86400, 31536000,
		params{headers: "none", cookies: "none", queries: "none", gzip: true, brotli: true}),
	cachePolicy("b2884449-e4de-46a7-ac36-70bc7f1ddd6d", "Managed-CachingOptimizedForUncompressedObjects", "Default policy when compression is disabled", 1, 86400, 31536000,
		params{headers: "none", cookies: "none", queries: "none"}),
	cachePolicy("08627262-05a9-4f76-9ded-b50ca2e3a84f", "Managed-Elemental-MediaPackage", "Policy for Elemental MediaPackage Origin", 0, 86400, 31536000,
		params{headers: "whitelist", headerNames: []string{"origin"}, cookies: "none", queries: "whitelist", queryNames: []string{"aws.manifestfilter", "end", "m", "start"}, gzip: true}),
	cachePolicy("83da9c7e-98b4-4e11-a168-04f0df8e2c65", "UseOriginCacheControlHeaders", "Policy for origins that return Cache-Control headers. Query strings are not included in the cache key.", 0, 0, 31536000,
		params{headers: "whitelist", headerNames: []string{"host", "origin", "x-http-method", "x-http-method-override", "x-method-override"}, cookies: "all", queries: "none", gzip: true, brotli: true}),
	cachePolicy("4cc15a8a-d715-48a4-82b8-cc0b614638fe", "UseOriginCacheControlHeaders-QueryStrings", "Policy for origins that return Cache-Control headers and serve different content based on values present in the query string.", 0, 0, 31536000,
		params{headers: "whitelist", headerNames: []string{"host", "origin", "x-http-method", "x-http-method-override", "x-method-override"}, cookies: "all", queries: "all", gzip: true, brotli: true}),
}, func(p types.CachePolicy) string { return aws.ToString(p.Id) })

// cloudFrontHeaders2022 are the CloudFront headers released through June 2022, which
// Managed-AllViewerAndCloudFrontHeaders-2022-06 adds to the viewer's.
var cloudFrontHeaders2022 = []string{"CloudFront-Forwarded-Proto", "CloudFront-Is-Android-Viewer", "CloudFront-Is-Desktop-Viewer",
	"CloudFront-Is-IOS-Viewer", "CloudFront-Is-Mobile-Viewer", "CloudFront-Is-SmartTV-Viewer", "CloudFront-Is-Tablet-Viewer",
	"CloudFront-Viewer-ASN", "CloudFront-Viewer-Address", "CloudFront-Viewer-City", "CloudFront-Viewer-Country",
	"CloudFront-Viewer-Country-Name", "CloudFront-Viewer-Country-Region", "CloudFront-Viewer-Country-Region-Name",
	"CloudFront-Viewer-Http-Version", "CloudFront-Viewer-JA3-Fingerprint", "CloudFront-Viewer-Latitude", "CloudFront-Viewer-Longitude",
	"CloudFront-Viewer-Metro-Code", "CloudFront-Viewer-Postal-Code", "CloudFront-Viewer-TLS", "CloudFront-Viewer-Time-Zone"}

// corsHeaders are the headers of a CORS preflight request.
var corsHeaders = []string{"Access-Control-Request-Headers", "Access-Control-Request-Method", "Origin"}

// originRequestPolicies are AWS's managed origin request policies, with their documented ids and
// settings (CloudFront Developer Guide, Use managed origin request policies), in id order.
var originRequestPolicies = sortedByID([]types.OriginRequestPolicy{
	originRequestPolicy("216adef6-5c7f-47e4-b989-5492eafa07d3", "Managed-AllViewer", "Policy to forward all parameters in viewer requests",
		params{headers: "allViewer", cookies: "all", queries: "all"}),
	originRequestPolicy("33f36d7e-f396-46d9-90e0-52428a34d9dc", "Managed-AllViewerAndCloudFrontHeaders-2022-06",
		"Policy to forward all parameters in viewer requests and all CloudFront headers that were released through June 2022",
		params{headers: "allViewerAndWhitelistCloudFront", headerNames: cloudFrontHeaders2022, cookies: "all", queries: "all"}),
	originRequestPolicy("b689b0a8-53d0-40ab-baf2-68738e2966ac", "Managed-AllViewerExceptHostHeader", "Policy to forward all parameters in viewer requests except for the Host header",
		params{headers: "allExcept", headerNames: []string{"host"}, cookies: "all", queries: "all"}),
	originRequestPolicy("59781a5b-3903-41f3-afcb-af62929ccde1", "Managed-CORS-CustomOrigin", "Policy for ACAO header",
		params{headers: "whitelist", headerNames: []string{"origin"}, cookies: "none", queries: "none"}),
	originRequestPolicy("88a5eaf4-2fd4-4709-b370-b4c650ea3fcf", "Managed-CORS-S3Origin", "Policy for S3 origin with CORS",
		params{headers: "whitelist", headerNames: corsHeaders, cookies: "none", queries: "none"}),
	originRequestPolicy("775133bc-15f2-49f9-abea-afb2e0bf67d2", "Managed-Elemental-MediaTailor-PersonalizedManifests", "Policy for Elemental MediaTailor Origin",
		params{headers: "whitelist", headerNames: append(slices.Clone(corsHeaders), "User-Agent", "X-Forwarded-For"), cookies: "none", queries: "all"}),
	originRequestPolicy("bf0718e1-ba1e-49d1-88b1-f726733018ae", "Managed-HostHeaderOnly", "Policy to forward the Host header",
		params{headers: "whitelist", headerNames: []string{"host"}, cookies: "none", queries: "none"}),
	originRequestPolicy("acba4595-bd28-49b8-b9fe-13317c0390fa", "Managed-UserAgentRefererHeaders", "Policy for forwarding User-Agent and Referer headers",
		params{headers: "whitelist", headerNames: []string{"Referer", "User-Agent"}, cookies: "none", queries: "none"}),
}, func(p types.OriginRequestPolicy) string { return aws.ToString(p.Id) })

// sortedByID returns policies in ascending order of id, the order they are listed and paged in.
func sortedByID[T any](policies []T, id func(T) string) []T {
	slices.SortFunc(policies, func(a, b T) int { return strings.Compare(id(a), id(b)) })
	return policies
}

// cachePolicy returns a managed cache policy.
func cachePolicy(id, name, comment string, minTTL, defaultTTL, maxTTL int64, p params) types.CachePolicy {
	return types.CachePolicy{Id: aws.String(id), LastModifiedTime: aws.Time(managedSince), CachePolicyConfig: &types.CachePolicyConfig{
		Name: aws.String(name), Comment: aws.String(comment), MinTTL: aws.Int64(minTTL), DefaultTTL: aws.Int64(defaultTTL), MaxTTL: aws.Int64(maxTTL),
		ParametersInCacheKeyAndForwardedToOrigin: &types.ParametersInCacheKeyAndForwardedToOrigin{
			EnableAcceptEncodingGzip: aws.Bool(p.gzip), EnableAcceptEncodingBrotli: aws.Bool(p.brotli),
			HeadersConfig: &types.CachePolicyHeadersConfig{HeaderBehavior: types.CachePolicyHeaderBehavior(p.headers), Headers: headerList(p.headerNames)},
			CookiesConfig: &types.CachePolicyCookiesConfig{CookieBehavior: types.CachePolicyCookieBehavior(p.cookies), Cookies: cookieList(p.cookieNames)},
			QueryStringsConfig: &types.CachePolicyQueryStringsConfig{QueryStringBehavior: types.CachePolicyQueryStringBehavior(p.queries),
				QueryStrings: queryList(p.queryNames)},
		}}}
}

// originRequestPolicy returns a managed origin request policy.
func originRequestPolicy(id, name, comment string, p params) types.OriginRequestPolicy {
	return types.OriginRequestPolicy{Id: aws.String(id), LastModifiedTime: aws.Time(managedSince), OriginRequestPolicyConfig: &types.OriginRequestPolicyConfig{
		Name: aws.String(name), Comment: aws.String(comment),
		HeadersConfig: &types.OriginRequestPolicyHeadersConfig{HeaderBehavior: types.OriginRequestPolicyHeaderBehavior(p.headers), Headers: headerList(p.headerNames)},
		CookiesConfig: &types.OriginRequestPolicyCookiesConfig{CookieBehavior: types.OriginRequestPolicyCookieBehavior(p.cookies), Cookies: cookieList(p.cookieNames)},
		QueryStringsConfig: &types.OriginRequestPolicyQueryStringsConfig{QueryStringBehavior: types.OriginRequestPolicyQueryStringBehavior(p.queries),
			QueryStrings: queryList(p.queryNames)},
	}}
}

// headerList returns a policy's header names, or nil when it names none.
func headerList(names []string) *types.Headers {
	if len(names) == 0 {
		return nil
	}
	return &types.Headers{Quantity: aws.Int32(int32(len(names))), Items: names}
}

// cookieList returns a policy's cookie names, or nil; see headerList.
func cookieList(names []string) *types.CookieNames {
	if len(names) == 0 {
		return nil
	}
	return &types.CookieNames{Quantity: aws.Int32(int32(len(names))), Items: names}
}

// queryList returns a policy's query string names, or nil; see headerList.
func queryList(names []string) *types.QueryStringNames {
	if len(names) == 0 {
		return nil
	}
	return &types.QueryStringNames{Quantity: aws.Int32(int32(len(names))), Items: names}
}

// managedCachePolicy returns the managed cache policy with id, or nil.
func managedCachePolicy(id string) *types.CachePolicy {
	i := slices.IndexFunc(cachePolicies, func(p types.CachePolicy) bool { return aws.ToString(p.Id) == id })
	if i < 0 {
		return nil
	}
	return clone(&cachePolicies[i])
}

// managedOriginRequestPolicy returns the managed origin request policy with id, or nil.
func managedOriginRequestPolicy(id string) *types.OriginRequestPolicy {
	i := slices.IndexFunc(originRequestPolicies, func(p types.OriginRequestPolicy) bool { return aws.ToString(p.Id) == id })
	if i < 0 {
		return nil
	}
	return clone(&originRequestPolicies[i])
}

// listedPolicies returns the policies a list request's Type selects: all of them for none or
// managed, none for custom (the emulator has no custom policies), and an error for another type.
func listedPolicies[T any](all []T, typ string) ([]T, error) {
	switch typ {
	case "", "managed":
		return all, nil
	case "custom":
		return nil, nil
	}
	return nil, invalidArgument("The parameter Type has an invalid value: %q; it must be managed or custom.", typ)
}

// listCachePolicies lists the cache policies of a type, a page at a time.
func (b *Backend) listCachePolicies(_ *core.Call, in *cloudfront.ListCachePoliciesInput) (*cloudfront.ListCachePoliciesOutput, error) {
	all, err := listedPolicies(cachePolicies, string(in.Type))
	list := listPage[types.CachePolicyList](all, func(p types.CachePolicy) string { return aws.ToString(p.Id) }, in.Marker, in.MaxItems,
		func(p types.CachePolicy) types.CachePolicySummary {
			return types.CachePolicySummary{Type: types.CachePolicyTypeManaged, CachePolicy: clone(&p)}
		})
	return &cloudfront.ListCachePoliciesOutput{CachePolicyList: list}, err
}

// getCachePolicy returns a cache policy and its ETag.
func (b *Backend) getCachePolicy(_ *core.Call, in *cloudfront.GetCachePolicyInput) (*cloudfront.GetCachePolicyOutput, error) {
	p := managedCachePolicy(aws.ToString(in.Id))
	if p == nil {
		return nil, noSuchCachePolicy()
	}
	return &cloudfront.GetCachePolicyOutput{CachePolicy: p, ETag: aws.String(managedETag)}, nil
}

// listOriginRequestPolicies lists the origin request policies of a type, a page at a time.
func (b *Backend) listOriginRequestPolicies(_ *core.Call, in *cloudfront.ListOriginRequestPoliciesInput) (*cloudfront.ListOriginRequestPoliciesOutput, error) {
	all, err := listedPolicies(originRequestPolicies, string(in.Type))
	list := listPage[types.OriginRequestPolicyList](all, func(p types.OriginRequestPolicy) string { return aws.ToString(p.Id) }, in.Marker, in.MaxItems,
		func(p types.OriginRequestPolicy) types.OriginRequestPolicySummary {
			return types.OriginRequestPolicySummary{Type: types.OriginRequestPolicyTypeManaged, OriginRequestPolicy: clone(&p)}
		})
	return &cloudfront.ListOriginRequestPoliciesOutput{OriginRequestPolicyList: list}, err
}

// getOriginRequestPolicy returns an origin request policy and its ETag.
func (b *Backend) getOriginRequestPolicy(_ *core.Call, in *cloudfront.GetOriginRequestPolicyInput) (*cloudfront.GetOriginRequestPolicyOutput, error) {
	p := managedOriginRequestPolicy(aws.ToString(in.Id))
	if p == nil {
		return nil, noSuchOriginRequestPolicy()
	}
	return &cloudfront.GetOriginRequestPolicyOutput{OriginRequestPolicy: p, ETag: aws.String(managedETag)}, nil
}
