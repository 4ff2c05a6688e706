package cloudfront

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// newID returns a CloudFront id, as of a distribution or an origin access control: "E" and 13
// upper-case letters and digits.
func newID() string { return "E" + strings.ToUpper(core.LowerAlnumID(13)) }

// newETag returns a new version identifier of a resource; AWS's ETags have the form of its ids.
func newETag() string { return newID() }

// newDomainName returns a distribution's domain name: d, 13 lower-case letters and digits, and
// .cloudfront.net.
func newDomainName() string { return "d" + core.LowerAlnumID(13) + ".cloudfront.net" }

// distributionARN returns the ARN of distribution id of account: CloudFront is global, so the ARN
// names no region.
func distributionARN(account, id string) string {
	return "arn:aws:cloudfront::" + account + ":distribution/" + id
}
