package cloudfrontdistribution

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
)

// testIDs is a catalogue of two managed cache policies and one origin request policy.
var testIDs = policyIDs{
	cache:  map[string]string{"Managed-CachingOptimized": "cache-optimized", "Managed-CachingDisabled": "cache-disabled"},
	origin: map[string]string{"Managed-AllViewer": "all-viewer"},
}

// spec returns a distribution by domain name with the spec's defaults as admission sets them,
// changed by mutate.
func spec(mutate func(*v1alpha1.CloudFrontDistributionSpec)) *v1alpha1.CloudFrontDistribution {
	d := &v1alpha1.CloudFrontDistribution{Spec: v1alpha1.CloudFrontDistributionSpec{
		Enabled: aws.Bool(true),
		Origins: []v1alpha1.DistributionOrigin{{ID: "web", DomainName: "origin.example.com", ProtocolPolicy: "https-only", HTTPPort: 80, HTTPSPort: 443}},
		DefaultCacheBehavior: v1alpha1.CacheBehaviorSettings{TargetOriginID: "web", ViewerProtocolPolicy: "redirect-to-https",
			Compress: aws.Bool(true), CachePolicy: "Managed-CachingOptimized"},
	}}
	if mutate != nil {
		mutate(&d.Spec)
	}
	return d
}

// answered returns the configuration a create of d sends, with what AWS fills in for what it
// leaves out, as GetDistribution answers it.
func answered(t *testing.T, d *v1alpha1.CloudFrontDistribution) *types.DistributionConfig {
	t.Helper()
	cfg, _, err := desired(d, newConfig(d), testIDs, bucketOrigins{})
	if err != nil {
		t.Fatalf("desired: %v", err)
	}
	zero := aws.Int32(0)
	if cfg.Aliases == nil {
		cfg.Aliases = &types.Aliases{Quantity: zero}
	}
	cfg.CustomErrorResponses, cfg.OriginGroups = &types.CustomErrorResponses{Quantity: zero}, &types.OriginGroups{Quantity: zero}
	cfg.WebACLId, cfg.DefaultRootObject = aws.String(""), aws.String("")
	cfg.IsIPV6Enabled, cfg.Staging = aws.Bool(false), aws.Bool(false)
	cfg.Restrictions = &types.Restrictions{GeoRestriction: &types.GeoRestriction{RestrictionType: types.GeoRestrictionTypeNone, Quantity: zero}}
	if aws.ToBool(cfg.ViewerCertificate.CloudFrontDefaultCertificate) {
		cfg.ViewerCertificate.CertificateSource, cfg.ViewerCertificate.SSLSupportMethod = types.CertificateSourceCloudfront, types.SSLSupportMethodVip
		cfg.ViewerCertificate.MinimumProtocolVersion = types.MinimumProtocolVersionTLSv1
	} else {
		cfg.ViewerCertificate.CloudFrontDefaultCertificate = aws.Bool(false)
		cfg.ViewerCertificate.CertificateSource, cfg.ViewerCertificate.Certificate = types.CertificateSourceAcm, cfg.ViewerCertificate.ACMCertificateArn
	}
	for i := range cfg.Origins.Items {
		o := &cfg.Origins.Items[i]
		o.CustomHeaders, o.ConnectionAttempts, o.ConnectionTimeout, o.OriginAccessControlId = &types.CustomHeaders{Quantity: zero}, aws.Int32(3), aws.Int32(10), aws.String("")
		o.CustomOriginConfig.OriginSslProtocols = &types.OriginSslProtocols{Quantity: aws.Int32(1), Items: []types.SslProtocol{types.SslProtocolTLSv12}}
		o.CustomOriginConfig.OriginReadTimeout, o.CustomOriginConfig.OriginKeepaliveTimeout = aws.Int32(30), aws.Int32(5)
	}
	cfg.DefaultCacheBehavior.FieldLevelEncryptionId = aws.String("")
	cfg.DefaultCacheBehavior.AllowedMethods.Items = []types.Method{types.MethodHead, types.MethodGet}
	return cfg
}

// TestDesired checks the comparison of the spec with CloudFront's configuration: what AWS
// filled in, methods in another order and aliases in another case are no difference; each
// changed field is named once and set in the configuration to send; a policy name that is not
// a managed policy's, and a certificate outside us-east-1, are refused.
func TestDesired(t *testing.T) {
	cert := "arn:aws:acm:us-east-1:123456789012:certificate/abc"
	withAlias := func(s *v1alpha1.CloudFrontDistributionSpec) {
		s.Aliases = []string{"cdn.example.com"}
		s.ViewerCertificate = &v1alpha1.ViewerCertificate{ACMCertificateARN: cert, MinimumProtocolVersion: "TLSv1.2_2021"}
	}
	cases := map[string]struct {
		created *v1alpha1.CloudFrontDistribution // the spec the distribution was created with
		now     *v1alpha1.CloudFrontDistribution // the spec compared with it
		fields  []string
		refused string // held by the error; "" means none
	}{
		"Unchanged": {created: spec(nil), now: spec(nil)},
		"UnchangedWithAlias": {created: spec(withAlias), now: spec(func(s *v1alpha1.CloudFrontDistributionSpec) {
			withAlias(s)
			s.Aliases = []string{"CDN.example.com"}
		})},
		"ShortPolicyName": {created: spec(nil), now: spec(func(s *v1alpha1.CloudFrontDistributionSpec) { s.DefaultCacheBehavior.CachePolicy = "CachingOptimized" })},
		"Changed": {created: spec(nil), now: spec(func(s *v1alpha1.CloudFrontDistributionSpec) {
			s.Comment, s.PriceClass, s.Enabled = "site", "PriceClass_100", aws.Bool(false)
			s.Origins[0].OriginPath = "/v1"
			s.DefaultCacheBehavior.OriginRequestPolicy = "AllViewer"
			s.OrderedCacheBehaviors = []v1alpha1.OrderedCacheBehavior{{PathPattern: "/api/*", CacheBehaviorSettings: v1alpha1.CacheBehaviorSettings{
				TargetOriginID: "web", CachePolicy: "CachingDisabled", AllowedMethods: []string{"GET", "HEAD", "OPTIONS"}}}}
			s.Logging = &v1alpha1.DistributionLogging{Bucket: "logs.s3.amazonaws.com"}
			withAlias(s)
		}), fields: []string{"comment", "enabled", "origins", "defaultCacheBehavior", "orderedCacheBehaviors", "aliases", "viewerCertificate", "priceClass", "logging"}},
		"UnknownPolicy": {created: spec(nil), now: spec(func(s *v1alpha1.CloudFrontDistributionSpec) { s.DefaultCacheBehavior.CachePolicy = "CachingEverything" }),
			refused: `defaultCacheBehavior.cachePolicy "CachingEverything" is not an AWS managed policy; use one of CachingDisabled, CachingOptimized`},
		"CertificateRegion": {created: spec(nil), now: spec(func(s *v1alpha1.CloudFrontDistributionSpec) {
			withAlias(s)
			s.ViewerCertificate.ACMCertificateARN = "arn:aws:acm:eu-west-1:123456789012:certificate/abc"
		}), refused: "not an ACM certificate in us-east-1"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cur := answered(t, tc.created)
			cfg, fields, err := desired(tc.now, cur, testIDs, bucketOrigins{})
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("error = %v, want one holding %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("desired: %v", err)
			}
			if !slices.Equal(fields, tc.fields) {
				t.Errorf("fields = %v, want %v", fields, tc.fields)
			}
			if len(fields) == 0 {
				return
			}
			if _, again, _ := desired(tc.now, cfg, testIDs, bucketOrigins{}); len(again) != 0 {
				t.Errorf("the configuration to send still differs in %v", again)
			}
			if aws.ToString(cfg.CallerReference) != aws.ToString(cur.CallerReference) || cfg.Restrictions == nil {
				t.Error("the configuration to send lost what the spec does not hold")
			}
		})
	}
}
