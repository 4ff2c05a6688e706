package s3

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The groups an ACL can grant to (Amazon S3 User Guide, Access control list (ACL) overview).
const (
	allUsers           = "http://acs.amazonaws.com/groups/global/AllUsers"
	authenticatedUsers = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers"
	logDelivery        = "http://acs.amazonaws.com/groups/s3/LogDelivery"
)

// canonicalID is the canonical user ID S3 shows for an account: 64 hexadecimal characters, as
// AWS's are. The emulator derives it from the account ID, so it is stable across runs.
func canonicalID(account string) string {
	sum := sha256.Sum256([]byte("canonical-user:" + account))
	return hex.EncodeToString(sum[:])
}

// userGrant grants permission to the canonical user id.
func userGrant(id string, permission types.Permission) types.Grant {
	return types.Grant{Grantee: &types.Grantee{Type: types.TypeCanonicalUser, ID: aws.String(id)}, Permission: permission}
}

// groupGrant grants permission to the group with uri.
func groupGrant(uri string, permission types.Permission) types.Grant {
	return types.Grant{Grantee: &types.Grantee{Type: types.TypeGroup, URI: aws.String(uri)}, Permission: permission}
}

// cannedGrants returns the grants of a canned ACL (Amazon S3 User Guide, Canned ACL) for a
// resource whose owner has the canonical ID owner. The owner of a bucket is also the bucket
// owner the bucket-owner-* ACLs name.
func cannedGrants(acl, owner string) ([]types.Grant, error) {
	grants := []types.Grant{userGrant(owner, types.PermissionFullControl)}
	switch types.BucketCannedACL(acl) {
	case types.BucketCannedACLPrivate, "bucket-owner-full-control", "bucket-owner-read", "aws-exec-read":
	case types.BucketCannedACLPublicRead:
		grants = append(grants, groupGrant(allUsers, types.PermissionRead))
	case types.BucketCannedACLPublicReadWrite:
		grants = append(grants, groupGrant(allUsers, types.PermissionRead), groupGrant(allUsers, types.PermissionWrite))
	case types.BucketCannedACLAuthenticatedRead:
		grants = append(grants, groupGrant(authenticatedUsers, types.PermissionRead))
	case "log-delivery-write":
		grants = append(grants, groupGrant(logDelivery, types.PermissionWrite), groupGrant(logDelivery, types.PermissionReadAcp))
	default:
		return nil, core.Errorf("InvalidArgument", "Invalid canned ACL %s", acl)
	}
	return grants, nil
}

// grantHeader matches one grantee of an x-amz-grant-* header: id="…", uri="…" or
// emailAddress="…".
var grantHeader = regexp.MustCompile(`^\s*(id|uri|emailAddress)\s*=\s*"?([^",]*)"?\s*$`)

// headerGrants returns the grants of PutBucketAcl's x-amz-grant-* headers, or nil when none is
// set. S3 resolves e-mail grantees to their accounts; the emulator knows no e-mail addresses,
// so it refuses them as AWS refuses an unknown one.
func headerGrants(in *s3.PutBucketAclInput) ([]types.Grant, error) {
	var grants []types.Grant
	for _, h := range []struct {
		value      *string
		permission types.Permission
	}{{in.GrantFullControl, types.PermissionFullControl}, {in.GrantRead, types.PermissionRead},
		{in.GrantReadACP, types.PermissionReadAcp}, {in.GrantWrite, types.PermissionWrite}, {in.GrantWriteACP, types.PermissionWriteAcp}} {
		if h.value == nil {
			continue
		}
		for _, grantee := range strings.Split(*h.value, ",") {
			m := grantHeader.FindStringSubmatch(grantee)
			switch {
			case m == nil:
				return nil, core.Errorf("InvalidArgument", "Invalid grantee %q", strings.TrimSpace(grantee))
			case m[1] == "id":
				grants = append(grants, userGrant(m[2], h.permission))
			case m[1] == "uri":
				grants = append(grants, groupGrant(m[2], h.permission))
			default:
				return nil, core.Errorf("UnresolvableGrantByEmailAddress", "The e-mail address you provided does not match any account on record.")
			}
		}
	}
	return grants, nil
}

// ownerOnly reports whether grants give the owner FULL_CONTROL and nothing else: the only ACL
// a bucket whose ownership is BucketOwnerEnforced accepts.
func ownerOnly(grants []types.Grant, owner string) bool {
	return len(grants) == 1 && grants[0].Grantee != nil && aws.ToString(grants[0].Grantee.ID) == owner &&
		grants[0].Permission == types.PermissionFullControl
}

// publicGrants reports whether grants give anything to everyone or to every AWS user, which
// BlockPublicAcls refuses.
func publicGrants(grants []types.Grant) bool {
	for _, g := range grants {
		if g.Grantee != nil && (aws.ToString(g.Grantee.URI) == allUsers || aws.ToString(g.Grantee.URI) == authenticatedUsers) {
			return true
		}
	}
	return false
}

// checkGrants validates the grantees of an ACL: canonical users need an ID, groups one of S3's
// group URIs.
func checkGrants(grants []types.Grant) error {
	for _, g := range grants {
		switch {
		case g.Grantee == nil || g.Permission == "":
			return malformedACL()
		case g.Grantee.Type == types.TypeCanonicalUser && aws.ToString(g.Grantee.ID) == "":
			return malformedACL()
		case g.Grantee.Type == types.TypeGroup && aws.ToString(g.Grantee.URI) != allUsers &&
			aws.ToString(g.Grantee.URI) != authenticatedUsers && aws.ToString(g.Grantee.URI) != logDelivery:
			return core.Errorf("InvalidArgument", "Invalid group uri")
		case g.Grantee.Type == types.TypeAmazonCustomerByEmail:
			return core.Errorf("UnresolvableGrantByEmailAddress", "The e-mail address you provided does not match any account on record.")
		}
	}
	return nil
}

// withGranteeTypes returns grants with each grantee's xsi:type, which the request carries as an
// XML attribute, set from the element it names the grantee by where it is missing.
func withGranteeTypes(grants []types.Grant) []types.Grant {
	out := make([]types.Grant, len(grants))
	for i, g := range grants {
		out[i] = g
		if g.Grantee == nil || g.Grantee.Type != "" {
			continue
		}
		grantee := *g.Grantee
		switch {
		case grantee.ID != nil:
			grantee.Type = types.TypeCanonicalUser
		case grantee.URI != nil:
			grantee.Type = types.TypeGroup
		case grantee.EmailAddress != nil:
			grantee.Type = types.TypeAmazonCustomerByEmail
		}
		out[i].Grantee = &grantee
	}
	return out
}

// malformedACL is S3's error for an ACL document it cannot use.
func malformedACL() *core.APIError {
	return core.Errorf("MalformedACLError", "The XML you provided was not well-formed or did not validate against our published schema")
}

// ownerACL is the ACL of a resource without one of its own: its owner's FULL_CONTROL.
func ownerACL(owner string) []types.Grant {
	return []types.Grant{userGrant(owner, types.PermissionFullControl)}
}

// putBucketAcl sets a bucket's ACL from a canned ACL, x-amz-grant-* headers or an
// AccessControlPolicy document, exactly one of them. As AWS documents, a bucket whose object
// ownership is BucketOwnerEnforced (the default) accepts only the owner's FULL_CONTROL
// (AccessControlListNotSupported otherwise), and BlockPublicAcls refuses public grants.
func (b *Backend) putBucketAcl(call *core.Call, in *s3.PutBucketAclInput) (*s3.PutBucketAclOutput, error) {
	return &s3.PutBucketAclOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		owner := canonicalID(bk.owner)
		fromHeaders, err := headerGrants(in)
		if err != nil {
			return err
		}
		var grants []types.Grant
		switch {
		case in.ACL != "" && (fromHeaders != nil || in.AccessControlPolicy != nil):
			return core.Errorf("InvalidRequest", "Specifying both Canned ACLs and Header Grants is not allowed")
		case in.ACL != "":
			if grants, err = cannedGrants(string(in.ACL), owner); err != nil {
				return err
			}
		case fromHeaders != nil:
			grants = fromHeaders
		case in.AccessControlPolicy != nil:
			grants = withGranteeTypes(in.AccessControlPolicy.Grants)
			if err := checkGrants(grants); err != nil {
				return err
			}
		default:
			return malformedACL()
		}
		if bk.ownership != nil && bk.ownership.Rules[0].ObjectOwnership == types.ObjectOwnershipBucketOwnerEnforced && !ownerOnly(grants, owner) {
			return core.Errorf("AccessControlListNotSupported", "The bucket does not allow ACLs")
		}
		if bk.publicAccess != nil && aws.ToBool(bk.publicAccess.BlockPublicAcls) && publicGrants(grants) {
			return &core.APIError{Code: "AccessDenied", Status: http.StatusForbidden, Message: "Access Denied"}
		}
		bk.acl = grants
		return nil
	})
}

// getBucketAcl returns the bucket's owner and grants; a bucket without an ACL of its own shows
// its owner's FULL_CONTROL, as AWS's do.
func (b *Backend) getBucketAcl(call *core.Call, in *s3.GetBucketAclInput) (*s3.GetBucketAclOutput, error) {
	out := &s3.GetBucketAclOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		owner := canonicalID(bk.owner)
		out.Owner, out.Grants = &types.Owner{ID: aws.String(owner)}, bk.acl
		if out.Grants == nil {
			out.Grants = ownerACL(owner)
		}
		return nil
	})
}

// getObjectAcl returns an object's owner and grants. The emulator keeps no object ACLs (buckets
// own their objects under BucketOwnerEnforced, AWS's default): every object shows the bucket
// owner's FULL_CONTROL.
func (b *Backend) getObjectAcl(call *core.Call, in *s3.GetObjectAclInput) (*s3.GetObjectAclOutput, error) {
	out := &s3.GetObjectAclOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if _, err := find(bk, aws.ToString(in.Key), aws.ToString(in.VersionId)); err != nil {
			return err
		}
		owner := canonicalID(bk.owner)
		out.Owner, out.Grants = &types.Owner{ID: aws.String(owner)}, ownerACL(owner)
		return nil
	})
}
