package emulator_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/runner-codes/infra-operator/emulator"
)

// cloudFrontTransition is how long a distribution stays InProgress with the emulator's defaults.
const cloudFrontTransition = 5 * time.Second

// Managed policy ids the tests use, as AWS documents them.
const (
	cachingOptimized = "658327ea-f89d-4fab-a63d-7e88639e58f6"
	corsS3Origin     = "88a5eaf4-2fd4-4709-b370-b4c650ea3fcf"
)

// The forms of AWS's CloudFront ids (of distributions and origin access controls) and domain names.
var (
	distributionID = regexp.MustCompile(`^E[A-Z0-9]{13}$`)
	cloudFrontHost = regexp.MustCompile(`^d[a-z0-9]{13}\.cloudfront\.net$`)
)

// cloudFrontEnv is an emulator with a frozen clock, its CloudFront client, and ACM clients of
// us-east-1 and eu-west-1.
type cloudFrontEnv struct {
	e            *emulator.Server
	url          string
	cf           *cloudfront.Client
	acmUS, acmEU *acm.Client
}

// cloudFrontClient starts an emulator for a CloudFront test.
func cloudFrontClient(t *testing.T, opts emulator.Options) cloudFrontEnv {
	t.Helper()
	e, url := start(t, opts)
	frozenOnSecond(e)
	cfg := sdkConfig(t, url, "AKIDCF", 1)
	eu := cfg.Copy()
	eu.Region = "eu-west-1"
	return cloudFrontEnv{e: e, url: url, cf: cloudfront.NewFromConfig(cfg), acmUS: acm.NewFromConfig(cfg), acmEU: acm.NewFromConfig(eu)}
}

// s3Distribution returns a distribution configuration with one S3 origin and a default
// behaviour under the managed CachingOptimized policy.
func s3Distribution(ref string) *types.DistributionConfig {
	return &types.DistributionConfig{
		CallerReference: aws.String(ref), Comment: aws.String("site"), Enabled: aws.Bool(true),
		Origins: &types.Origins{Quantity: aws.Int32(1), Items: []types.Origin{{Id: aws.String("site"),
			DomainName: aws.String("site.s3.us-east-1.amazonaws.com"), S3OriginConfig: &types.S3OriginConfig{OriginAccessIdentity: aws.String("")}}}},
		DefaultCacheBehavior: &types.DefaultCacheBehavior{TargetOriginId: aws.String("site"),
			ViewerProtocolPolicy: types.ViewerProtocolPolicyRedirectToHttps, CachePolicyId: aws.String(cachingOptimized)},
	}
}

// wantCode fails the test unless err carries the AWS error code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := errorCode(err); got != code {
		t.Fatalf("%s: error %q, want %s", what, got, code)
	}
}

// issuedCertificate requests a DNS-validated certificate and lets ACM issue it.
func (env cloudFrontEnv) issuedCertificate(t *testing.T, c *acm.Client, domain string, sans ...string) *string {
	t.Helper()
	out, err := c.RequestCertificate(context.Background(), &acm.RequestCertificateInput{DomainName: aws.String(domain),
		SubjectAlternativeNames: sans, ValidationMethod: "DNS"})
	if err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(time.Minute)
	return out.CertificateArn
}

// TestCloudFrontDistributionLifecycle follows a distribution through AWS's lifecycle:
// CallerReference idempotency, InProgress then Deployed on the clock, If-Match on update and
// delete with a new ETag on each change, and deletion only once disabled and deployed.
func TestCloudFrontDistributionLifecycle(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{})
	ctx := context.Background()
	created, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: s3Distribution("uid-1")})
	if err != nil {
		t.Fatal(err)
	}
	d := created.Distribution
	id := aws.ToString(d.Id)
	if !distributionID.MatchString(id) || !cloudFrontHost.MatchString(aws.ToString(d.DomainName)) ||
		aws.ToString(d.ARN) != "arn:aws:cloudfront::"+emulator.DefaultAccount+":distribution/"+id ||
		aws.ToString(d.Status) != "InProgress" || aws.ToString(created.ETag) == "" || !strings.HasSuffix(aws.ToString(created.Location), "/2020-05-31/distribution/"+id) {
		t.Fatalf("created %+v etag %q location %q", d, aws.ToString(created.ETag), aws.ToString(created.Location))
	}
	c := d.DistributionConfig
	if c.PriceClass != types.PriceClassPriceClassAll || c.HttpVersion != types.HttpVersionHttp2 || !aws.ToBool(c.ViewerCertificate.CloudFrontDefaultCertificate) ||
		aws.ToInt32(c.Aliases.Quantity) != 0 || aws.ToInt32(c.Origins.Items[0].ConnectionAttempts) != 3 {
		t.Fatalf("defaults not applied: %+v", c)
	}
	again, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: s3Distribution("uid-1")})
	if err != nil || aws.ToString(again.Distribution.Id) != id {
		t.Fatalf("same reference and config: %v, %v", again, err)
	}
	other := s3Distribution("uid-1")
	other.Comment = aws.String("changed")
	_, err = env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: other})
	wantCode(t, "same reference, other config", err, "DistributionAlreadyExists")

	env.e.Clock.Advance(cloudFrontTransition)
	got, err := env.cf.GetDistribution(ctx, &cloudfront.GetDistributionInput{Id: aws.String(id)})
	if err != nil || aws.ToString(got.Distribution.Status) != "Deployed" || aws.ToString(got.ETag) != aws.ToString(created.ETag) {
		t.Fatalf("after the transition: %+v, %v", got, err)
	}
	cfg, err := env.cf.GetDistributionConfig(ctx, &cloudfront.GetDistributionConfigInput{Id: aws.String(id)})
	if err != nil || aws.ToString(cfg.DistributionConfig.CallerReference) != "uid-1" || aws.ToString(cfg.ETag) != aws.ToString(created.ETag) {
		t.Fatalf("config: %+v, %v", cfg, err)
	}

	update := cfg.DistributionConfig
	update.Enabled = aws.Bool(false)
	_, err = env.cf.UpdateDistribution(ctx, &cloudfront.UpdateDistributionInput{Id: aws.String(id), DistributionConfig: update})
	wantCode(t, "update without If-Match", err, "InvalidIfMatchVersion")
	_, err = env.cf.UpdateDistribution(ctx, &cloudfront.UpdateDistributionInput{Id: aws.String(id), DistributionConfig: update, IfMatch: aws.String("ESTALE0000000")})
	wantCode(t, "update with a stale If-Match", err, "PreconditionFailed")
	renamed := s3Distribution("uid-other")
	_, err = env.cf.UpdateDistribution(ctx, &cloudfront.UpdateDistributionInput{Id: aws.String(id), DistributionConfig: renamed, IfMatch: cfg.ETag})
	wantCode(t, "update of the caller reference", err, "IllegalUpdate")
	updated, err := env.cf.UpdateDistribution(ctx, &cloudfront.UpdateDistributionInput{Id: aws.String(id), DistributionConfig: update, IfMatch: cfg.ETag})
	if err != nil || aws.ToString(updated.ETag) == aws.ToString(cfg.ETag) || aws.ToString(updated.Distribution.Status) != "InProgress" ||
		aws.ToBool(updated.Distribution.DistributionConfig.Enabled) {
		t.Fatalf("update: %+v, %v", updated, err)
	}

	_, err = env.cf.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: aws.String(id), IfMatch: updated.ETag})
	wantCode(t, "delete while the disabling deploys", err, "DistributionNotDisabled")
	env.e.Clock.Advance(cloudFrontTransition)
	_, err = env.cf.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: aws.String(id)})
	wantCode(t, "delete without If-Match", err, "InvalidIfMatchVersion")
	_, err = env.cf.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: aws.String(id), IfMatch: cfg.ETag})
	wantCode(t, "delete with a stale If-Match", err, "PreconditionFailed")
	if _, err := env.cf.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: aws.String(id), IfMatch: updated.ETag}); err != nil {
		t.Fatal(err)
	}
	_, err = env.cf.GetDistribution(ctx, &cloudfront.GetDistributionInput{Id: aws.String(id)})
	wantCode(t, "get after delete", err, "NoSuchDistribution")
}

// TestCloudFrontEnabledDeleteAndTransition checks that an enabled, deployed distribution cannot
// be deleted, and that Options.Transitions["CloudFront"] = 0 deploys at once.
func TestCloudFrontEnabledDeleteAndTransition(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{Transitions: map[string]time.Duration{"CloudFront": 0}})
	ctx := context.Background()
	created, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: s3Distribution("uid-2")})
	if err != nil || aws.ToString(created.Distribution.Status) != "Deployed" {
		t.Fatalf("create with no transition: %+v, %v", created, err)
	}
	_, err = env.cf.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: created.Distribution.Id, IfMatch: created.ETag})
	wantCode(t, "delete an enabled distribution", err, "DistributionNotDisabled")
}

// TestCloudFrontValidation checks the configuration errors AWS documents for CreateDistribution.
func TestCloudFrontValidation(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{})
	ctx := context.Background()
	cases := map[string]struct {
		edit func(c *types.DistributionConfig)
		code string
	}{
		"unknown target origin": {func(c *types.DistributionConfig) { c.DefaultCacheBehavior.TargetOriginId = aws.String("nope") }, "NoSuchOrigin"},
		"unknown cache policy": {func(c *types.DistributionConfig) {
			c.DefaultCacheBehavior.CachePolicyId = aws.String("00000000-0000-0000-0000-000000000000")
		}, "NoSuchCachePolicy"},
		"unknown origin request policy": {func(c *types.DistributionConfig) {
			c.DefaultCacheBehavior.OriginRequestPolicyId = aws.String("00000000-0000-0000-0000-000000000000")
		}, "NoSuchOriginRequestPolicy"},
		"no cache policy nor forwarded values": {func(c *types.DistributionConfig) { c.DefaultCacheBehavior.CachePolicyId = nil }, "InvalidArgument"},
		"quantity off":                         {func(c *types.DistributionConfig) { c.Origins.Quantity = aws.Int32(2) }, "InconsistentQuantities"},
		"both origin kinds": {func(c *types.DistributionConfig) {
			c.Origins.Items[0].CustomOriginConfig = &types.CustomOriginConfig{HTTPPort: aws.Int32(80), HTTPSPort: aws.Int32(443), OriginProtocolPolicy: types.OriginProtocolPolicyHttpsOnly}
		}, "InvalidArgument"},
		"unknown origin access control": {func(c *types.DistributionConfig) {
			c.Origins.Items[0].OriginAccessControlId = aws.String("E0000000000000")
		}, "InvalidOriginAccessControl"},
		"alias without certificate": {func(c *types.DistributionConfig) {
			c.Aliases = &types.Aliases{Quantity: aws.Int32(1), Items: []string{"www.example.com"}}
		}, "InvalidViewerCertificate"},
		"price class": {func(c *types.DistributionConfig) { c.PriceClass = "PriceClass_300" }, "InvalidArgument"},
		"web ACL": {func(c *types.DistributionConfig) {
			c.WebACLId = aws.String("arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/site/473e64fd-f30b-4765-81a0-62ad96dd167a")
		}, "InvalidWebACLId"},
		"root object": {func(c *types.DistributionConfig) { c.DefaultRootObject = aws.String("/index.html") }, "InvalidDefaultRootObject"},
		"logging bucket": {func(c *types.DistributionConfig) {
			c.Logging = &types.LoggingConfig{Enabled: aws.Bool(true), Bucket: aws.String("logs"), IncludeCookies: aws.Bool(false), Prefix: aws.String("")}
		}, "InvalidArgument"},
		"allowed methods": {func(c *types.DistributionConfig) {
			c.DefaultCacheBehavior.AllowedMethods = &types.AllowedMethods{Quantity: aws.Int32(1), Items: []types.Method{types.MethodGet}}
		}, "InvalidArgument"},
	}
	for name, tc := range cases {
		cfg := s3Distribution("bad-" + name)
		tc.edit(cfg)
		_, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: cfg})
		wantCode(t, name, err, tc.code)
	}
	legacy := s3Distribution("legacy")
	legacy.DefaultCacheBehavior.CachePolicyId = nil
	legacy.DefaultCacheBehavior.ForwardedValues = &types.ForwardedValues{QueryString: aws.Bool(false), Cookies: &types.CookiePreference{Forward: types.ItemSelectionNone}}
	legacy.DefaultCacheBehavior.MinTTL = aws.Int64(0)
	if _, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: legacy}); err != nil {
		t.Fatalf("legacy forwarded values: %v", err)
	}
}

// TestCloudFrontAliasesAndCertificates checks aliases against ACM certificates: the certificate
// must be issued in us-east-1 to the caller and cover every alias, and an alias belongs to one
// distribution of any account (CNAMEAlreadyExists).
func TestCloudFrontAliasesAndCertificates(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{Accounts: map[string]string{"AKIDOTHER": "111111111111"}})
	ctx := context.Background()
	wildcard := env.issuedCertificate(t, env.acmUS, "example.com", "*.example.com")
	europe := env.issuedCertificate(t, env.acmEU, "example.com", "*.example.com")
	pending, err := env.acmUS.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("pending.example.com"), ValidationMethod: "DNS"})
	if err != nil {
		t.Fatal(err)
	}
	withCert := func(ref string, arn *string, aliases ...string) *types.DistributionConfig {
		c := s3Distribution(ref)
		c.Aliases = &types.Aliases{Quantity: aws.Int32(int32(len(aliases))), Items: aliases}
		c.ViewerCertificate = &types.ViewerCertificate{ACMCertificateArn: arn, SSLSupportMethod: types.SSLSupportMethodSniOnly,
			MinimumProtocolVersion: types.MinimumProtocolVersionTLSv122021}
		return c
	}
	for name, cfg := range map[string]*types.DistributionConfig{
		"certificate outside us-east-1": withCert("eu", europe, "www.example.com"),
		"certificate pending":           withCert("pending", pending.CertificateArn, "pending.example.com"),
		"certificate unknown":           withCert("unknown", aws.String("arn:aws:acm:us-east-1:000000000000:certificate/00000000-0000-4000-8000-000000000000"), "www.example.com"),
		"alias not covered":             withCert("deep", wildcard, "a.b.example.com"),
		"alias of another domain":       withCert("other", wildcard, "www.example.org"),
	} {
		_, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: cfg})
		wantCode(t, name, err, "InvalidViewerCertificate")
	}
	// The full shape of an operator's distribution: an ALB origin behind an ordered behaviour,
	// price class, WAFv2 web ACL and logging.
	full := withCert("site", wildcard, "www.example.com", "example.com")
	full.Origins = &types.Origins{Quantity: aws.Int32(2), Items: append(full.Origins.Items, types.Origin{Id: aws.String("api"),
		DomainName: aws.String("internal-api-123.us-east-1.elb.amazonaws.com"), CustomOriginConfig: &types.CustomOriginConfig{
			HTTPPort: aws.Int32(80), HTTPSPort: aws.Int32(443), OriginProtocolPolicy: types.OriginProtocolPolicyHttpsOnly}})}
	full.CacheBehaviors = &types.CacheBehaviors{Quantity: aws.Int32(1), Items: []types.CacheBehavior{{PathPattern: aws.String("/api/*"),
		TargetOriginId: aws.String("api"), ViewerProtocolPolicy: types.ViewerProtocolPolicyHttpsOnly,
		CachePolicyId: aws.String("4135ea2d-6df8-44a3-9df3-4b5a84be39ad"), OriginRequestPolicyId: aws.String("b689b0a8-53d0-40ab-baf2-68738e2966ac"),
		AllowedMethods: &types.AllowedMethods{Quantity: aws.Int32(7), Items: []types.Method{"GET", "HEAD", "OPTIONS", "PUT", "POST", "PATCH", "DELETE"}}}}}
	full.PriceClass = types.PriceClassPriceClass100
	full.WebACLId = aws.String("arn:aws:wafv2:us-east-1:000000000000:global/webacl/site/473e64fd-f30b-4765-81a0-62ad96dd167a")
	full.Logging = &types.LoggingConfig{Enabled: aws.Bool(true), IncludeCookies: aws.Bool(false), Bucket: aws.String("logs.s3.amazonaws.com"), Prefix: aws.String("cf/")}
	created, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: full})
	if err != nil {
		t.Fatal(err)
	}
	if got := created.Distribution.DistributionConfig; aws.ToInt32(got.CacheBehaviors.Quantity) != 1 || got.PriceClass != types.PriceClassPriceClass100 ||
		aws.ToString(got.CacheBehaviors.Items[0].TargetOriginId) != "api" || !aws.ToBool(got.Logging.Enabled) {
		t.Fatalf("full configuration round trip: %+v", got)
	}
	vc := created.Distribution.DistributionConfig.ViewerCertificate
	if vc.CertificateSource != types.CertificateSourceAcm || aws.ToString(vc.Certificate) != aws.ToString(wildcard) || aws.ToBool(vc.CloudFrontDefaultCertificate) {
		t.Fatalf("viewer certificate %+v", vc)
	}
	_, err = env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: withCert("dup", wildcard, "WWW.example.com")})
	wantCode(t, "alias held by another distribution", err, "CNAMEAlreadyExists")

	stranger := cloudfront.NewFromConfig(sdkConfig(t, env.url, "AKIDOTHER", 1))
	strangerACM := acm.NewFromConfig(sdkConfig(t, env.url, "AKIDOTHER", 1))
	theirs := env.issuedCertificate(t, strangerACM, "www.example.com")
	_, err = stranger.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: withCert("theirs", theirs, "www.example.com")})
	wantCode(t, "alias held in another account", err, "CNAMEAlreadyExists")
	_, err = stranger.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: withCert("mine", wildcard, "api.example.com")})
	wantCode(t, "certificate of another account", err, "InvalidViewerCertificate")
}

// TestCloudFrontOriginAccessControls checks origin access controls: unique names, ETags on
// update and delete, paging, and OriginAccessControlInUse while a distribution's origin uses one.
func TestCloudFrontOriginAccessControls(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{Transitions: map[string]time.Duration{"CloudFront": 0}})
	ctx := context.Background()
	config := func(name string) *types.OriginAccessControlConfig {
		return &types.OriginAccessControlConfig{Name: aws.String(name), SigningProtocol: types.OriginAccessControlSigningProtocolsSigv4,
			SigningBehavior: types.OriginAccessControlSigningBehaviorsAlways, OriginAccessControlOriginType: types.OriginAccessControlOriginTypesS3}
	}
	created, err := env.cf.CreateOriginAccessControl(ctx, &cloudfront.CreateOriginAccessControlInput{OriginAccessControlConfig: config("site")})
	if err != nil || !distributionID.MatchString(aws.ToString(created.OriginAccessControl.Id)) || aws.ToString(created.ETag) == "" {
		t.Fatalf("create: %+v, %v", created, err)
	}
	id := created.OriginAccessControl.Id
	_, err = env.cf.CreateOriginAccessControl(ctx, &cloudfront.CreateOriginAccessControlInput{OriginAccessControlConfig: config("site")})
	wantCode(t, "same name", err, "OriginAccessControlAlreadyExists")
	if _, err := env.cf.CreateOriginAccessControl(ctx, &cloudfront.CreateOriginAccessControlInput{OriginAccessControlConfig: config("other")}); err != nil {
		t.Fatal(err)
	}
	first, err := env.cf.ListOriginAccessControls(ctx, &cloudfront.ListOriginAccessControlsInput{MaxItems: aws.Int32(1)})
	if err != nil || len(first.OriginAccessControlList.Items) != 1 || !aws.ToBool(first.OriginAccessControlList.IsTruncated) {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	second, err := env.cf.ListOriginAccessControls(ctx, &cloudfront.ListOriginAccessControlsInput{MaxItems: aws.Int32(1), Marker: first.OriginAccessControlList.NextMarker})
	if err != nil || len(second.OriginAccessControlList.Items) != 1 || aws.ToBool(second.OriginAccessControlList.IsTruncated) ||
		aws.ToString(second.OriginAccessControlList.Items[0].Id) == aws.ToString(first.OriginAccessControlList.Items[0].Id) {
		t.Fatalf("second page: %+v, %v", second, err)
	}

	renamed := config("site-renamed")
	renamed.Description = aws.String("bucket access")
	_, err = env.cf.UpdateOriginAccessControl(ctx, &cloudfront.UpdateOriginAccessControlInput{Id: id, OriginAccessControlConfig: renamed})
	wantCode(t, "update without If-Match", err, "InvalidIfMatchVersion")
	updated, err := env.cf.UpdateOriginAccessControl(ctx, &cloudfront.UpdateOriginAccessControlInput{Id: id, OriginAccessControlConfig: renamed, IfMatch: created.ETag})
	if err != nil || aws.ToString(updated.ETag) == aws.ToString(created.ETag) {
		t.Fatalf("update: %+v, %v", updated, err)
	}
	got, err := env.cf.GetOriginAccessControl(ctx, &cloudfront.GetOriginAccessControlInput{Id: id})
	if err != nil || aws.ToString(got.OriginAccessControl.OriginAccessControlConfig.Name) != "site-renamed" || aws.ToString(got.ETag) != aws.ToString(updated.ETag) {
		t.Fatalf("get: %+v, %v", got, err)
	}

	cfg := s3Distribution("oac")
	cfg.Origins.Items[0].OriginAccessControlId = id
	cfg.DefaultCacheBehavior.OriginRequestPolicyId = aws.String(corsS3Origin)
	dist, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: cfg})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.cf.DeleteOriginAccessControl(ctx, &cloudfront.DeleteOriginAccessControlInput{Id: id, IfMatch: updated.ETag})
	wantCode(t, "delete in use", err, "OriginAccessControlInUse")
	// The bucket policy statement an origin access control needs, as CloudFront's documentation
	// gives it, is one the emulated S3 accepts.
	bucket := s3Client(t, env.url, "AKIDCF", "us-east-1")
	if _, err := bucket.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("site")}); err != nil {
		t.Fatal(err)
	}
	policy := `{"Version":"2012-10-17","Statement":[{"Sid":"AllowCloudFrontServicePrincipalReadOnly","Effect":"Allow",` +
		`"Principal":{"Service":"cloudfront.amazonaws.com"},"Action":"s3:GetObject","Resource":"arn:aws:s3:::site/*",` +
		`"Condition":{"StringEquals":{"AWS:SourceArn":"` + aws.ToString(dist.Distribution.ARN) + `"}}}]}`
	if _, err := bucket.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: aws.String("site"), Policy: aws.String(policy)}); err != nil {
		t.Fatalf("bucket policy for the origin access control: %v", err)
	}
	withOAI := s3Distribution("oac-oai")
	withOAI.Origins.Items[0].OriginAccessControlId = id
	withOAI.Origins.Items[0].S3OriginConfig.OriginAccessIdentity = aws.String("origin-access-identity/cloudfront/E1234567890ABC")
	_, err = env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: withOAI})
	wantCode(t, "OAC with OAI", err, "IllegalOriginAccessConfiguration")

	disabled := dist.Distribution.DistributionConfig
	disabled.Enabled = aws.Bool(false)
	off, err := env.cf.UpdateDistribution(ctx, &cloudfront.UpdateDistributionInput{Id: dist.Distribution.Id, DistributionConfig: disabled, IfMatch: dist.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.cf.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: dist.Distribution.Id, IfMatch: off.ETag}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.cf.DeleteOriginAccessControl(ctx, &cloudfront.DeleteOriginAccessControlInput{Id: id, IfMatch: updated.ETag}); err != nil {
		t.Fatal(err)
	}
	_, err = env.cf.GetOriginAccessControl(ctx, &cloudfront.GetOriginAccessControlInput{Id: id})
	wantCode(t, "get after delete", err, "NoSuchOriginAccessControl")
}

// TestCloudFrontManagedPolicies checks the catalogue of AWS managed policies: found by name in
// the managed listing with AWS's ids, none listed as custom, and read by id.
func TestCloudFrontManagedPolicies(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{})
	ctx := context.Background()
	caches, err := env.cf.ListCachePolicies(ctx, &cloudfront.ListCachePoliciesInput{Type: types.CachePolicyTypeManaged})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, s := range caches.CachePolicyList.Items {
		byName[aws.ToString(s.CachePolicy.CachePolicyConfig.Name)] = aws.ToString(s.CachePolicy.Id)
	}
	for name, id := range map[string]string{"Managed-CachingOptimized": cachingOptimized, "Managed-CachingDisabled": "4135ea2d-6df8-44a3-9df3-4b5a84be39ad",
		"Managed-CachingOptimizedForUncompressedObjects": "b2884449-e4de-46a7-ac36-70bc7f1ddd6d", "Managed-Elemental-MediaPackage": "08627262-05a9-4f76-9ded-b50ca2e3a84f",
		"Managed-Amplify": "2e54312d-136d-493c-8eb9-b001f22f67d2"} {
		if byName[name] != id {
			t.Errorf("cache policy %s: id %q, want %s", name, byName[name], id)
		}
	}
	custom, err := env.cf.ListCachePolicies(ctx, &cloudfront.ListCachePoliciesInput{Type: types.CachePolicyTypeCustom})
	if err != nil || aws.ToInt32(custom.CachePolicyList.Quantity) != 0 {
		t.Fatalf("custom cache policies: %+v, %v", custom, err)
	}
	paged, err := env.cf.ListCachePolicies(ctx, &cloudfront.ListCachePoliciesInput{MaxItems: aws.Int32(2)})
	if err != nil || len(paged.CachePolicyList.Items) != 2 || paged.CachePolicyList.NextMarker == nil {
		t.Fatalf("paged cache policies: %+v, %v", paged, err)
	}
	policy, err := env.cf.GetCachePolicy(ctx, &cloudfront.GetCachePolicyInput{Id: aws.String(cachingOptimized)})
	if err != nil || aws.ToInt64(policy.CachePolicy.CachePolicyConfig.DefaultTTL) != 86400 || aws.ToString(policy.ETag) == "" {
		t.Fatalf("get cache policy: %+v, %v", policy, err)
	}
	_, err = env.cf.GetCachePolicy(ctx, &cloudfront.GetCachePolicyInput{Id: aws.String("00000000-0000-0000-0000-000000000000")})
	wantCode(t, "unknown cache policy", err, "NoSuchCachePolicy")

	requests, err := env.cf.ListOriginRequestPolicies(ctx, &cloudfront.ListOriginRequestPoliciesInput{Type: types.OriginRequestPolicyTypeManaged})
	if err != nil {
		t.Fatal(err)
	}
	byName = map[string]string{}
	for _, s := range requests.OriginRequestPolicyList.Items {
		byName[aws.ToString(s.OriginRequestPolicy.OriginRequestPolicyConfig.Name)] = aws.ToString(s.OriginRequestPolicy.Id)
	}
	for name, id := range map[string]string{"Managed-AllViewer": "216adef6-5c7f-47e4-b989-5492eafa07d3", "Managed-CORS-S3Origin": corsS3Origin,
		"Managed-AllViewerExceptHostHeader": "b689b0a8-53d0-40ab-baf2-68738e2966ac", "Managed-UserAgentRefererHeaders": "acba4595-bd28-49b8-b9fe-13317c0390fa",
		"Managed-CORS-CustomOrigin": "59781a5b-3903-41f3-afcb-af62929ccde1", "Managed-AllViewerAndCloudFrontHeaders-2022-06": "33f36d7e-f396-46d9-90e0-52428a34d9dc"} {
		if byName[name] != id {
			t.Errorf("origin request policy %s: id %q, want %s", name, byName[name], id)
		}
	}
	orp, err := env.cf.GetOriginRequestPolicy(ctx, &cloudfront.GetOriginRequestPolicyInput{Id: aws.String(corsS3Origin)})
	if err != nil || aws.ToInt32(orp.OriginRequestPolicy.OriginRequestPolicyConfig.HeadersConfig.Headers.Quantity) != 3 {
		t.Fatalf("get origin request policy: %+v, %v", orp, err)
	}
}

// TestCloudFrontTagsPagingAndGlobal checks CreateDistributionWithTags, the tag operations,
// ListDistributions paging, and that CloudFront is global: a client of another region sees the
// same distributions.
func TestCloudFrontTagsPagingAndGlobal(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{})
	ctx := context.Background()
	tagged, err := env.cf.CreateDistributionWithTags(ctx, &cloudfront.CreateDistributionWithTagsInput{DistributionConfigWithTags: &types.DistributionConfigWithTags{
		DistributionConfig: s3Distribution("tagged"), Tags: &types.Tags{Items: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := tagged.Distribution.ARN
	if _, err := env.cf.TagResource(ctx, &cloudfront.TagResourceInput{Resource: arn, Tags: &types.Tags{Items: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.cf.UntagResource(ctx, &cloudfront.UntagResourceInput{Resource: arn, TagKeys: &types.TagKeys{Items: []string{"team"}}}); err != nil {
		t.Fatal(err)
	}
	tags, err := env.cf.ListTagsForResource(ctx, &cloudfront.ListTagsForResourceInput{Resource: arn})
	if err != nil || len(tags.Tags.Items) != 1 || aws.ToString(tags.Tags.Items[0].Key) != "env" {
		t.Fatalf("tags: %+v, %v", tags, err)
	}
	_, err = env.cf.TagResource(ctx, &cloudfront.TagResourceInput{Resource: arn, Tags: &types.Tags{Items: []types.Tag{{Key: aws.String("bad#key"), Value: aws.String("v")}}}})
	wantCode(t, "tag key with #", err, "InvalidTagging")
	_, err = env.cf.ListTagsForResource(ctx, &cloudfront.ListTagsForResourceInput{Resource: aws.String("arn:aws:cloudfront::000000000000:distribution/E0000000000000")})
	wantCode(t, "tags of an unknown distribution", err, "NoSuchResource")

	if _, err := env.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: s3Distribution("second")}); err != nil {
		t.Fatal(err)
	}
	cfg := sdkConfig(t, env.url, "AKIDCF", 1)
	cfg.Region = "ap-southeast-2"
	sydney := cloudfront.NewFromConfig(cfg)
	first, err := sydney.ListDistributions(ctx, &cloudfront.ListDistributionsInput{MaxItems: aws.Int32(1)})
	if err != nil || len(first.DistributionList.Items) != 1 || !aws.ToBool(first.DistributionList.IsTruncated) || first.DistributionList.NextMarker == nil {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	second, err := sydney.ListDistributions(ctx, &cloudfront.ListDistributionsInput{MaxItems: aws.Int32(1), Marker: first.DistributionList.NextMarker})
	if err != nil || len(second.DistributionList.Items) != 1 || aws.ToBool(second.DistributionList.IsTruncated) ||
		aws.ToString(second.DistributionList.Items[0].Id) == aws.ToString(first.DistributionList.Items[0].Id) ||
		aws.ToString(second.DistributionList.Items[0].ETag) == "" {
		t.Fatalf("second page: %+v, %v", second, err)
	}
}

// TestCloudFrontUnimplemented checks that an operation the emulator does not implement answers
// the protocol's unknown-operation error rather than a made-up answer.
func TestCloudFrontUnimplemented(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{})
	_, err := env.cf.CreateInvalidation(context.Background(), &cloudfront.CreateInvalidationInput{DistributionId: aws.String("E0000000000000"),
		InvalidationBatch: &types.InvalidationBatch{CallerReference: aws.String("x"), Paths: &types.Paths{Quantity: aws.Int32(1), Items: []string{"/*"}}}})
	wantCode(t, "CreateInvalidation", err, "NotImplemented")
}

// TestCloudFrontEmptyLists checks that an empty list the SDK sends as an empty element (a
// configuration with CacheBehaviors Quantity 0 and Items set to an empty list) is read as no
// items, as AWS reads it, not as one empty item (InconsistentQuantities).
func TestCloudFrontEmptyLists(t *testing.T) {
	env := cloudFrontClient(t, emulator.Options{})
	cfg := s3Distribution("uid-empty")
	cfg.CacheBehaviors = &types.CacheBehaviors{Quantity: aws.Int32(0), Items: []types.CacheBehavior{}}
	cfg.Aliases = &types.Aliases{Quantity: aws.Int32(0), Items: []string{}}
	out, err := env.cf.CreateDistribution(context.Background(), &cloudfront.CreateDistributionInput{DistributionConfig: cfg})
	if err != nil {
		t.Fatalf("create with empty lists: %v", err)
	}
	if got := out.Distribution.DistributionConfig.CacheBehaviors; aws.ToInt32(got.Quantity) != 0 || len(got.Items) != 0 {
		t.Errorf("cache behaviours = %+v, want none", got)
	}
}
