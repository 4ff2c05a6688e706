package s3

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// putBucketWebsite sets the bucket's static website configuration. As on AWS, it needs an
// index document (a suffix without a slash) unless all requests are redirected, and a redirect
// of all requests excludes every other setting. Nothing is served.
func (b *Backend) putBucketWebsite(call *core.Call, in *s3.PutBucketWebsiteInput) (*s3.PutBucketWebsiteOutput, error) {
	return &s3.PutBucketWebsiteOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.WebsiteConfiguration
		switch {
		case c == nil:
			return malformedXML()
		case c.RedirectAllRequestsTo != nil:
			if aws.ToString(c.RedirectAllRequestsTo.HostName) == "" {
				return malformedXML()
			}
			if c.IndexDocument != nil || c.ErrorDocument != nil || len(c.RoutingRules) > 0 {
				return core.Errorf("InvalidArgument", "RedirectAllRequestsTo cannot be provided in conjunction with other Routing Rules.")
			}
		case c.IndexDocument == nil:
			return core.Errorf("InvalidArgument", "A value for IndexDocument Suffix must be provided if RedirectAllRequestsTo is empty")
		case aws.ToString(c.IndexDocument.Suffix) == "" || strings.Contains(aws.ToString(c.IndexDocument.Suffix), "/"):
			return core.Errorf("InvalidArgument", "The IndexDocument Suffix is not well formed")
		}
		bk.website = c
		return nil
	})
}

// getBucketWebsite returns the website configuration, or NoSuchWebsiteConfiguration (404).
func (b *Backend) getBucketWebsite(call *core.Call, in *s3.GetBucketWebsiteInput) (*s3.GetBucketWebsiteOutput, error) {
	out := &s3.GetBucketWebsiteOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if bk.website == nil {
			return missing("NoSuchWebsiteConfiguration", "The specified bucket does not have a website configuration")
		}
		c := bk.website
		out.IndexDocument, out.ErrorDocument, out.RedirectAllRequestsTo, out.RoutingRules = c.IndexDocument, c.ErrorDocument, c.RedirectAllRequestsTo, c.RoutingRules
		return nil
	})
}

// deleteBucketWebsite removes the website configuration; removing none succeeds, as on AWS.
func (b *Backend) deleteBucketWebsite(call *core.Call, in *s3.DeleteBucketWebsiteInput) (*s3.DeleteBucketWebsiteOutput, error) {
	return &s3.DeleteBucketWebsiteOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.website = nil; return nil })
}
