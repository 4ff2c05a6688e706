package differential

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// edge is one side's CloudFront client, how it lets a change deploy, and what the steps follow:
// the distribution, its latest ETag and the first ETag, and an origin access control with its
// ETag.
type edge struct {
	cf                  *cloudfront.Client
	settle              func()
	id, etag, firstETag *string
	oac, oacETag        *string
}

// The forms of AWS's CloudFront ids (of distributions and origin access controls) and domain names.
var (
	cloudFrontID   = regexp.MustCompile(`^E[A-Z0-9]{13}$`)
	cloudFrontHost = regexp.MustCompile(`^d[a-z0-9]{13}\.cloudfront\.net$`)
)

// webDistribution is the configuration the CloudFront steps create: one S3 origin, the default
// behaviour under the managed CachingOptimized policy.
func webDistribution(ref, comment string) *types.DistributionConfig {
	return &types.DistributionConfig{
		CallerReference: aws.String(ref), Comment: aws.String(comment), Enabled: aws.Bool(true),
		Origins: &types.Origins{Quantity: aws.Int32(1), Items: []types.Origin{{Id: aws.String("site"),
			DomainName: aws.String("site.s3.us-east-1.amazonaws.com"), S3OriginConfig: &types.S3OriginConfig{OriginAccessIdentity: aws.String("")}}}},
		DefaultCacheBehavior: &types.DefaultCacheBehavior{TargetOriginId: aws.String("site"),
			ViewerProtocolPolicy: types.ViewerProtocolPolicyRedirectToHttps, CachePolicyId: aws.String("658327ea-f89d-4fab-a63d-7e88639e58f6")},
	}
}

// edgeSteps is the CloudFront sequence both sides run: a distribution created idempotently,
// read, updated and deleted under If-Match, origin access controls, tags, listing, policies and
// the validation errors AWS documents.
func edgeSteps() []step[*edge] {
	ctx := context.Background()
	other := func(in func(e *edge) error) func(e *edge) outcome {
		return func(e *edge) outcome { return observe(in(e), nil) }
	}
	create := func(cfg *types.DistributionConfig) func(e *edge) error {
		return func(e *edge) error {
			_, err := e.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: cfg})
			return err
		}
	}
	get := func(e *edge) outcome {
		out, err := e.cf.GetDistribution(ctx, &cloudfront.GetDistributionInput{Id: e.id})
		if err != nil {
			return observe(err, nil)
		}
		d := out.Distribution
		return observe(nil, map[string]string{"status": aws.ToString(d.Status), "enabled": strconv.FormatBool(aws.ToBool(d.DistributionConfig.Enabled)),
			"id": strconv.FormatBool(cloudFrontID.MatchString(aws.ToString(d.Id))), "domain": strconv.FormatBool(cloudFrontHost.MatchString(aws.ToString(d.DomainName))),
			"arn":  strconv.FormatBool(strings.HasPrefix(aws.ToString(d.ARN), "arn:aws:cloudfront::") && strings.HasSuffix(aws.ToString(d.ARN), ":distribution/"+aws.ToString(d.Id))),
			"etag": strconv.FormatBool(aws.ToString(out.ETag) == aws.ToString(e.etag))})
	}
	update := func(ifMatch func(e *edge) *string, enabled bool) func(e *edge) outcome {
		return func(e *edge) outcome {
			cfg, err := e.cf.GetDistributionConfig(ctx, &cloudfront.GetDistributionConfigInput{Id: e.id})
			if err != nil {
				return observe(err, nil)
			}
			cfg.DistributionConfig.Enabled = aws.Bool(enabled)
			out, err := e.cf.UpdateDistribution(ctx, &cloudfront.UpdateDistributionInput{Id: e.id, DistributionConfig: cfg.DistributionConfig, IfMatch: ifMatch(e)})
			if err != nil {
				return observe(err, nil)
			}
			changed := aws.ToString(out.ETag) != aws.ToString(e.etag)
			e.etag = out.ETag
			return observe(nil, map[string]string{"newETag": strconv.FormatBool(changed), "status": aws.ToString(out.Distribution.Status)})
		}
	}
	current := func(e *edge) *string { return e.etag }
	first := func(e *edge) *string { return e.firstETag }
	none := func(*edge) *string { return nil }
	remove := func(ifMatch func(e *edge) *string) func(e *edge) error {
		return func(e *edge) error {
			_, err := e.cf.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: e.id, IfMatch: ifMatch(e)})
			return err
		}
	}
	oacConfig := func(name string) *types.OriginAccessControlConfig {
		return &types.OriginAccessControlConfig{Name: aws.String(name), SigningProtocol: types.OriginAccessControlSigningProtocolsSigv4,
			SigningBehavior: types.OriginAccessControlSigningBehaviorsAlways, OriginAccessControlOriginType: types.OriginAccessControlOriginTypesS3}
	}
	noOrigin := webDistribution("diff-no-origin", "x")
	noOrigin.DefaultCacheBehavior.TargetOriginId = aws.String("missing")
	aliased := webDistribution("diff-alias", "x")
	aliased.Aliases = &types.Aliases{Quantity: aws.Int32(1), Items: []string{"www.diff.example.com"}}
	inconsistent := webDistribution("diff-quantity", "x")
	inconsistent.Origins.Quantity = aws.Int32(2)
	return []step[*edge]{
		{"CreateDistribution", func(e *edge) outcome {
			out, err := e.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: webDistribution("diff-1", "site")})
			if err != nil {
				return observe(err, nil)
			}
			e.id, e.etag, e.firstETag = out.Distribution.Id, out.ETag, out.ETag
			return observe(nil, map[string]string{"status": aws.ToString(out.Distribution.Status), "location": strconv.FormatBool(strings.HasSuffix(aws.ToString(out.Location), "/distribution/"+aws.ToString(e.id)))})
		}},
		{"CreateSameReference", func(e *edge) outcome {
			out, err := e.cf.CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: webDistribution("diff-1", "site")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"sameID": strconv.FormatBool(aws.ToString(out.Distribution.Id) == aws.ToString(e.id))})
		}},
		{"CreateSameReferenceOtherConfig", other(create(webDistribution("diff-1", "changed")))},
		{"GetInProgress", get},
		{"GetDeployed", func(e *edge) outcome { e.settle(); return get(e) }},
		{"GetDistributionConfig", func(e *edge) outcome {
			out, err := e.cf.GetDistributionConfig(ctx, &cloudfront.GetDistributionConfigInput{Id: e.id})
			if err != nil {
				return observe(err, nil)
			}
			c := out.DistributionConfig
			return observe(nil, map[string]string{"ref": aws.ToString(c.CallerReference), "priceClass": string(c.PriceClass),
				"httpVersion": string(c.HttpVersion), "etag": strconv.FormatBool(aws.ToString(out.ETag) == aws.ToString(e.etag))})
		}},
		{"UpdateWithoutIfMatch", update(none, false)},
		{"UpdateStaleIfMatch", func(e *edge) outcome {
			return update(func(*edge) *string { return aws.String("E0000000000000") }, false)(e)
		}},
		{"UpdateDisable", update(current, false)},
		{"DeleteWhileInProgress", other(remove(current))},
		{"DeleteStaleIfMatch", func(e *edge) outcome { e.settle(); return observe(remove(first)(e), nil) }},
		{"DeleteWithoutIfMatch", other(remove(none))},
		{"Delete", other(remove(current))},
		{"GetDeleted", get},
		{"CreateUnknownOrigin", other(create(noOrigin))},
		{"CreateAliasWithoutCertificate", other(create(aliased))},
		{"CreateInconsistentQuantity", other(create(inconsistent))},
		{"CreateOriginAccessControl", func(e *edge) outcome {
			out, err := e.cf.CreateOriginAccessControl(ctx, &cloudfront.CreateOriginAccessControlInput{OriginAccessControlConfig: oacConfig("diff-oac")})
			if err != nil {
				return observe(err, nil)
			}
			e.oac, e.oacETag = out.OriginAccessControl.Id, out.ETag
			return observe(nil, map[string]string{"id": strconv.FormatBool(cloudFrontID.MatchString(aws.ToString(e.oac)))})
		}},
		{"CreateOriginAccessControlSameName", other(func(e *edge) error {
			_, err := e.cf.CreateOriginAccessControl(ctx, &cloudfront.CreateOriginAccessControlInput{OriginAccessControlConfig: oacConfig("diff-oac")})
			return err
		})},
		{"GetOriginAccessControl", func(e *edge) outcome {
			out, err := e.cf.GetOriginAccessControl(ctx, &cloudfront.GetOriginAccessControlInput{Id: e.oac})
			if err != nil {
				return observe(err, nil)
			}
			c := out.OriginAccessControl.OriginAccessControlConfig
			return observe(nil, map[string]string{"name": aws.ToString(c.Name), "behavior": string(c.SigningBehavior), "etag": strconv.FormatBool(aws.ToString(out.ETag) == aws.ToString(e.oacETag))})
		}},
		{"UpdateOriginAccessControlWithoutIfMatch", other(func(e *edge) error {
			_, err := e.cf.UpdateOriginAccessControl(ctx, &cloudfront.UpdateOriginAccessControlInput{Id: e.oac, OriginAccessControlConfig: oacConfig("diff-oac-2")})
			return err
		})},
		{"UpdateOriginAccessControl", func(e *edge) outcome {
			out, err := e.cf.UpdateOriginAccessControl(ctx, &cloudfront.UpdateOriginAccessControlInput{Id: e.oac, OriginAccessControlConfig: oacConfig("diff-oac-2"), IfMatch: e.oacETag})
			if err != nil {
				return observe(err, nil)
			}
			changed := aws.ToString(out.ETag) != aws.ToString(e.oacETag)
			e.oacETag = out.ETag
			return observe(nil, map[string]string{"newETag": strconv.FormatBool(changed)})
		}},
		{"ListOriginAccessControls", func(e *edge) outcome {
			out, err := e.cf.ListOriginAccessControls(ctx, &cloudfront.ListOriginAccessControlsInput{})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"quantity": strconv.Itoa(int(aws.ToInt32(out.OriginAccessControlList.Quantity)))})
		}},
		{"DeleteOriginAccessControl", other(func(e *edge) error {
			_, err := e.cf.DeleteOriginAccessControl(ctx, &cloudfront.DeleteOriginAccessControlInput{Id: e.oac, IfMatch: e.oacETag})
			return err
		})},
		{"GetDeletedOriginAccessControl", other(func(e *edge) error {
			_, err := e.cf.GetOriginAccessControl(ctx, &cloudfront.GetOriginAccessControlInput{Id: e.oac})
			return err
		})},
		{"CreateDistributionWithTags", func(e *edge) outcome {
			out, err := e.cf.CreateDistributionWithTags(ctx, &cloudfront.CreateDistributionWithTagsInput{DistributionConfigWithTags: &types.DistributionConfigWithTags{
				DistributionConfig: webDistribution("diff-tags", "tagged"), Tags: &types.Tags{Items: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}}}})
			if err != nil {
				return observe(err, nil)
			}
			tags, err := e.cf.ListTagsForResource(ctx, &cloudfront.ListTagsForResourceInput{Resource: out.Distribution.ARN})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"tags": strconv.Itoa(len(tags.Tags.Items))})
		}},
		{"ListDistributions", func(e *edge) outcome {
			out, err := e.cf.ListDistributions(ctx, &cloudfront.ListDistributionsInput{})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"quantity": strconv.Itoa(int(aws.ToInt32(out.DistributionList.Quantity))),
				"truncated": strconv.FormatBool(aws.ToBool(out.DistributionList.IsTruncated))})
		}},
		{"ListManagedCachePolicies", func(e *edge) outcome {
			out, err := e.cf.ListCachePolicies(ctx, &cloudfront.ListCachePoliciesInput{Type: types.CachePolicyTypeManaged})
			if err != nil {
				return observe(err, nil)
			}
			found := false
			for _, s := range out.CachePolicyList.Items {
				found = found || aws.ToString(s.CachePolicy.CachePolicyConfig.Name) == "Managed-CachingOptimized"
			}
			return observe(nil, map[string]string{"cachingOptimized": strconv.FormatBool(found)})
		}},
	}
}

// TestCloudFrontAgainstMoto compares CloudFront with moto's, the emulator's changes deploying
// when its clock moves past the transition.
func TestCloudFrontAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := &edge{cf: cloudfront.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &edge{cf: cloudfront.NewFromConfig(sdkConfig(t, peerURL)), settle: func() {}}
	compare(t, emuSide, peerSide, "moto "+motoVersion, edgeSteps(), map[string]string{
		"CreateSameReference": "moto answers DistributionAlreadyExists for any reuse of a CallerReference; AWS answers the existing " +
			"distribution when the configuration is the same (CreateDistribution, CallerReference) and DistributionAlreadyExists only for another one",
		"GetInProgress": "moto's distribution is Deployed from its first read, and its ids are a random letter and 12 characters, its domain " +
			"names lack the leading d and its ARNs lack the empty region field (arn:aws:cloudfront:<account>:...); AWS's ids are E and 13 " +
			"characters, domains d<13>.cloudfront.net, ARNs arn:aws:cloudfront::<account>:distribution/<id>, and a new distribution is " +
			"InProgress until deployed",
		"GetDeployed":        "moto's ids, domain names and ARNs are not AWS's forms (see GetInProgress)",
		"UpdateStaleIfMatch": "moto ignores the If-Match value; AWS answers PreconditionFailed when it is not the current ETag",
		"UpdateDisable": "moto keeps the ETag and stays Deployed across an update; AWS gives every change a new ETag and is InProgress " +
			"until it is deployed",
		"DeleteWhileInProgress": "moto deletes a distribution at once; AWS answers DistributionNotDisabled until it is disabled and Deployed",
		"DeleteStaleIfMatch":    "moto already deleted the distribution (see DeleteWhileInProgress) and ignores If-Match values anyway",
		"Delete":                "moto already deleted the distribution (see DeleteWhileInProgress)",
		"CreateAliasWithoutCertificate": "moto accepts an alias served with the CloudFront default certificate; AWS answers " +
			"InvalidViewerCertificate, an alias needing a trusted certificate that covers it",
		"CreateInconsistentQuantity": "moto does not check Quantity against Items; AWS answers InconsistentQuantities",
		"CreateOriginAccessControl":  "moto's origin access control ids are not E and 13 characters, AWS's form",
		"CreateOriginAccessControlSameName": "moto accepts a second origin access control of the same name; AWS answers " +
			"OriginAccessControlAlreadyExists",
		"UpdateOriginAccessControlWithoutIfMatch": "moto updates without If-Match; AWS answers InvalidIfMatchVersion",
		"UpdateOriginAccessControl":               "moto keeps the ETag across an update; AWS gives every change a new ETag",
		"ListOriginAccessControls":                "moto has the second control of the same name AWS refuses (see CreateOriginAccessControlSameName)",
		"ListDistributions": "moto still has the distributions AWS refuses or has not deleted yet (see CreateAliasWithoutCertificate, " +
			"CreateInconsistentQuantity)",
		"ListManagedCachePolicies": "moto does not implement ListCachePolicies (an HTML 404); AWS lists its managed cache policies",
	})
}
