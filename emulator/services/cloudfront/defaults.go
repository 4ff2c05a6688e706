package cloudfront

import (
	"encoding/json"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
)

// clone returns a deep copy of an SDK structure, through its JSON form (the SDK's types hold
// only exported data fields).
func clone[T any](v *T) *T {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic("cloudfront: copy " + err.Error())
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic("cloudfront: copy " + err.Error())
	}
	return out
}

// sameConfig reports whether two distribution configurations, both with their defaults
// applied, are the same.
func sameConfig(a, b *types.DistributionConfig) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// withDefaults returns a copy of cfg with what the request left out set to what AWS answers
// for it: no aliases, behaviours, error responses or origin groups, no logging, no geographic
// restriction, the CloudFront default certificate, PriceClass_All, HTTP/2, no web ACL, and for
// each origin three connection attempts of 10 seconds and no path.
func withDefaults(cfg *types.DistributionConfig) *types.DistributionConfig {
	c := clone(cfg)
	zero := aws.Int32(0)
	if c.Aliases == nil {
		c.Aliases = &types.Aliases{Quantity: zero}
	}
	if c.CacheBehaviors == nil {
		c.CacheBehaviors = &types.CacheBehaviors{Quantity: zero}
	}
	if c.CustomErrorResponses == nil {
		c.CustomErrorResponses = &types.CustomErrorResponses{Quantity: zero}
	}
	if c.OriginGroups == nil {
		c.OriginGroups = &types.OriginGroups{Quantity: zero}
	}
	if c.DefaultRootObject == nil {
		c.DefaultRootObject = aws.String("")
	}
	if c.WebACLId == nil {
		c.WebACLId = aws.String("")
	}
	if c.Logging == nil {
		c.Logging = &types.LoggingConfig{Enabled: aws.Bool(false), IncludeCookies: aws.Bool(false), Bucket: aws.String(""), Prefix: aws.String("")}
	}
	if c.Restrictions == nil {
		c.Restrictions = &types.Restrictions{GeoRestriction: &types.GeoRestriction{RestrictionType: types.GeoRestrictionTypeNone, Quantity: zero}}
	}
	if c.PriceClass == "" {
		c.PriceClass = types.PriceClassPriceClassAll
	}
	if c.HttpVersion == "" {
		c.HttpVersion = types.HttpVersionHttp2
	}
	if c.IsIPV6Enabled == nil {
		c.IsIPV6Enabled = aws.Bool(false)
	}
	if c.Staging == nil {
		c.Staging = aws.Bool(false)
	}
	c.ViewerCertificate = viewerCertificateDefaults(c.ViewerCertificate)
	if c.Origins != nil {
		for i := range c.Origins.Items {
			o := &c.Origins.Items[i]
			if o.OriginPath == nil {
				o.OriginPath = aws.String("")
			}
			if o.CustomHeaders == nil {
				o.CustomHeaders = &types.CustomHeaders{Quantity: zero}
			}
			if o.ConnectionAttempts == nil {
				o.ConnectionAttempts = aws.Int32(3)
			}
			if o.ConnectionTimeout == nil {
				o.ConnectionTimeout = aws.Int32(10)
			}
			if o.OriginAccessControlId == nil {
				o.OriginAccessControlId = aws.String("")
			}
		}
	}
	return c
}

// viewerCertificateDefaults completes a viewer certificate as AWS reports it: the CloudFront
// default certificate when none is given, the source of a custom one, and TLSv1 as the minimum
// protocol version unless one is named.
func viewerCertificateDefaults(vc *types.ViewerCertificate) *types.ViewerCertificate {
	if vc == nil {
		vc = &types.ViewerCertificate{CloudFrontDefaultCertificate: aws.Bool(true)}
	}
	custom := aws.ToString(vc.ACMCertificateArn) != "" || aws.ToString(vc.IAMCertificateId) != ""
	if custom && vc.CloudFrontDefaultCertificate == nil {
		vc.CloudFrontDefaultCertificate = aws.Bool(false)
	}
	switch {
	case aws.ToString(vc.ACMCertificateArn) != "":
		vc.CertificateSource, vc.Certificate = types.CertificateSourceAcm, vc.ACMCertificateArn
	case aws.ToString(vc.IAMCertificateId) != "":
		vc.CertificateSource, vc.Certificate = types.CertificateSourceIam, vc.IAMCertificateId
	default:
		if vc.CloudFrontDefaultCertificate == nil {
			vc.CloudFrontDefaultCertificate = aws.Bool(true)
		}
		vc.CertificateSource = types.CertificateSourceCloudfront
		if vc.SSLSupportMethod == "" {
			vc.SSLSupportMethod = types.SSLSupportMethodVip
		}
	}
	if vc.MinimumProtocolVersion == "" {
		vc.MinimumProtocolVersion = types.MinimumProtocolVersionTLSv1
	}
	return vc
}
