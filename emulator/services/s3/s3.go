// Package s3 emulates Amazon S3 over its REST-XML protocol (path-style addressing): buckets in
// one global namespace with AWS's naming and region rules, versioning, default encryption,
// lifecycle rules, CORS, public access blocks, ownership controls, policies and their public
// status, tags, ACLs (canned, grant headers or documents, refused under BucketOwnerEnforced as
// on AWS), Transfer Acceleration, access logging, event notification configurations, request
// payment, static website and replication configurations, ABAC status, Object Lock (enabled
// at creation or later on a versioned bucket, with a default retention; no object is
// retained), and objects with versions, tags and attributes, listed by ListObjects (v1 and v2, with
// delimiters) and ListObjectVersions, so that deleting a bucket that still holds objects fails
// with BucketNotEmpty.
//
// Configurations are stored and returned, never acted on: no log is written, no event
// delivered, no object replicated, no website served. Reads of what the emulator does not keep
// answer as AWS does for a bucket with nothing configured: empty analytics, Intelligent-Tiering,
// inventory and metrics lists, no multipart uploads, and every object's ACL is its bucket
// owner's FULL_CONTROL. Canonical user IDs are derived from the account ID (64 hexadecimal
// characters, as AWS's). The legacy GetBucketNotification shares its request with
// GetBucketNotificationConfiguration, which answers it. GetBucketAbac and PutBucketAbac, newer
// than the v1 API model, come from its hand-written supplement (models/apis/s3.supplement.json).
//
// Objects are encrypted as S3 decides it: by PutObject's x-amz-server-side-encryption headers,
// or else by the bucket's default encryption (SSE-S3 by default), and GetObject and HeadObject
// report it. As AWS documents for PutBucketEncryption, S3 does not validate the KMS key ID of a
// default encryption configuration; the key is checked against the emulated KMS when an object
// is stored under SSE-KMS, and a key that does not exist, is disabled, is pending deletion or is
// no symmetric encryption key refuses PutObject with KMS's error code behind "KMS."
// (KMS.NotFoundException, KMS.DisabledException, KMS.KMSInvalidStateException,
// KMS.InvalidKeyUsageException) and KMS's message, as S3 relays it. Aws:kms without a key uses
// S3's AWS managed key (alias/aws/s3). Reading an object does not check its key again.
package s3

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// Backend holds every bucket; bucket names are global across accounts and regions, as in AWS.
type Backend struct {
	clock   *core.Clock
	keys    core.Keys
	mu      sync.Mutex
	buckets map[string]*bucket
	tags    *core.Tags // the buckets', by name
	seq     int
	// destinations are where event notifications go (NotifyThrough), outbox the events
	// requests recorded for delivery once the lock is let go, and undelivered counts the
	// deliveries that failed, by destination and reason.
	destinations *Destinations
	outbox       []pendingEvent
	undelivered  map[string]int
}

// New returns an empty S3 backend on clock that encrypts objects with the KMS keys of keys.
func New(clock *core.Clock, keys core.Keys) *Backend {
	return &Backend{clock: clock, keys: keys, buckets: map[string]*bucket{}, tags: core.NewTags(tagRules), undelivered: map[string]int{}}
}

// Service describes S3 to the router.
func (b *Backend) Service() *core.Service {
	s := core.RESTService("s3", "S3", core.ProtocolRESTXML, models.MustLoad("s3"),
		&core.APIError{Code: "SlowDown", Status: http.StatusServiceUnavailable, Server: true, Message: "Please reduce your request rate."})
	s.XMLNamespace = "http://s3.amazonaws.com/doc/2006-03-01/"
	// AWS answers GetBucketLocation with the bare <LocationConstraint> element.
	s.ScalarDocuments = map[string]string{"GetBucketLocation": "LocationConstraint"}
	return s.Declare(0, b.dump, b.operations())
}

// bucket is one S3 bucket and its configuration.
type bucket struct {
	name, owner, region string
	created             time.Time
	versioning          types.BucketVersioningStatus
	encryption          *types.ServerSideEncryptionConfiguration
	lifecycle           []types.LifecycleRule
	cors                []types.CORSRule
	publicAccess        *types.PublicAccessBlockConfiguration
	ownership           *types.OwnershipControls
	policy              string
	acl                 []types.Grant // nil: the owner's FULL_CONTROL alone (the private ACL)
	accelerate          types.BucketAccelerateStatus
	logging             *types.LoggingEnabled
	notification        *types.NotificationConfiguration
	payer               types.Payer
	abac                types.BucketAbacStatus
	website             *types.WebsiteConfiguration
	replication         *types.ReplicationConfiguration
	objectLock          *types.ObjectLockConfiguration // nil unless Object Lock is enabled
	objects             map[string][]*object           // versions of each key, oldest first
}

var (
	bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	ipAddress  = regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+$`)
)

// validBucketName applies AWS's general purpose bucket naming rules.
func validBucketName(n string) bool {
	return bucketName.MatchString(n) && !strings.Contains(n, "..") && !ipAddress.MatchString(n) &&
		!strings.HasPrefix(n, "xn--") && !strings.HasPrefix(n, "sthree-") &&
		!strings.HasSuffix(n, "-s3alias") && !strings.HasSuffix(n, "--ol-s3")
}

func noSuchBucket(name string) *core.APIError {
	return core.NotFoundf("NoSuchBucket", "The specified bucket does not exist: %s", name)
}

// bucketFor returns a bucket the caller owns. The caller holds b.mu.
func (b *Backend) bucketFor(call *core.Call, name *string) (*bucket, error) {
	bk, ok := b.buckets[aws.ToString(name)]
	if !ok {
		return nil, noSuchBucket(aws.ToString(name))
	}
	if bk.owner != call.Account {
		return nil, &core.APIError{Code: "AccessDenied", Status: http.StatusForbidden, Message: "Access Denied"}
	}
	return bk, nil
}

func (b *Backend) createBucket(call *core.Call, in *s3.CreateBucketInput) (*s3.CreateBucketOutput, error) {
	name := aws.ToString(in.Bucket)
	if !validBucketName(name) {
		return nil, core.Errorf("InvalidBucketName", "The specified bucket is not valid.")
	}
	location := ""
	if in.CreateBucketConfiguration != nil {
		location = string(in.CreateBucketConfiguration.LocationConstraint)
	}
	switch {
	case call.Region == "us-east-1" && location == "us-east-1":
		return nil, core.Errorf("InvalidLocationConstraint", "The specified location-constraint is not valid")
	case call.Region != "us-east-1" && location != call.Region:
		return nil, core.Errorf("IllegalLocationConstraintException",
			"The %s location constraint is incompatible for the region specific endpoint this request was sent to.", orUSEast1(location))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if existing, ok := b.buckets[name]; ok {
		if existing.owner != call.Account {
			return nil, &core.APIError{Code: "BucketAlreadyExists", Status: http.StatusConflict,
				Message: "The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again."}
		}
		if existing.region == "us-east-1" && call.Region == "us-east-1" {
			// AWS's legacy behaviour: re-creating your own bucket in us-east-1 succeeds.
			return &s3.CreateBucketOutput{Location: aws.String("/" + name)}, nil
		}
		return nil, &core.APIError{Code: "BucketAlreadyOwnedByYou", Status: http.StatusConflict,
			Message: "Your previous request to create the named bucket succeeded and you already own it."}
	}
	ownership := types.ObjectOwnershipBucketOwnerEnforced
	if in.ObjectOwnership != "" {
		ownership = in.ObjectOwnership
	}
	bk := &bucket{
		name: name, owner: call.Account, region: call.Region, created: call.Now,
		ownership:    &types.OwnershipControls{Rules: []types.OwnershipControlsRule{{ObjectOwnership: ownership}}},
		publicAccess: allBlocked(),
		objects:      map[string][]*object{},
	}
	if aws.ToBool(in.ObjectLockEnabledForBucket) {
		bk.objectLock = &types.ObjectLockConfiguration{ObjectLockEnabled: types.ObjectLockEnabledEnabled}
		// Object Lock works only on versioned buckets: S3 enables versioning with it.
		bk.versioning = types.BucketVersioningStatusEnabled
	}
	if in.ACL != "" {
		grants, err := cannedGrants(string(in.ACL), canonicalID(call.Account))
		if err != nil {
			return nil, err
		}
		if ownership == types.ObjectOwnershipBucketOwnerEnforced && !ownerOnly(grants, canonicalID(call.Account)) {
			return nil, core.Errorf("InvalidBucketAclWithObjectOwnership", "Bucket cannot have ACLs set with ObjectOwnership's BucketOwnerEnforced setting")
		}
		bk.acl = grants
	}
	b.buckets[name] = bk
	return &s3.CreateBucketOutput{Location: aws.String("/" + name)}, nil
}

func orUSEast1(location string) string {
	if location == "" {
		return "us-east-1"
	}
	return location
}

// allBlocked is the public access block AWS gives new buckets since April 2023.
func allBlocked() *types.PublicAccessBlockConfiguration {
	return &types.PublicAccessBlockConfiguration{BlockPublicAcls: aws.Bool(true), IgnorePublicAcls: aws.Bool(true),
		BlockPublicPolicy: aws.Bool(true), RestrictPublicBuckets: aws.Bool(true)}
}

func (b *Backend) headBucket(call *core.Call, in *s3.HeadBucketInput) (*s3.HeadBucketOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.HeadBucketOutput, error) {
		return &s3.HeadBucketOutput{BucketRegion: aws.String(bk.region)}, nil
	})
}

func (b *Backend) deleteBucket(call *core.Call, in *s3.DeleteBucketInput) (*s3.DeleteBucketOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.DeleteBucketOutput, error) {
		if len(bk.objects) > 0 {
			return nil, &core.APIError{Code: "BucketNotEmpty", Status: http.StatusConflict, Message: "The bucket you tried to delete is not empty"}
		}
		delete(b.buckets, bk.name)
		b.tags.Delete(bk.name)
		return &s3.DeleteBucketOutput{}, nil
	})
}

func (b *Backend) getBucketLocation(call *core.Call, in *s3.GetBucketLocationInput) (*s3.GetBucketLocationOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketLocationOutput, error) {
		out := &s3.GetBucketLocationOutput{}
		if bk.region != "us-east-1" {
			out.LocationConstraint = types.BucketLocationConstraint(bk.region)
		}
		return out, nil
	})
}

func (b *Backend) listBuckets(call *core.Call, _ *s3.ListBucketsInput) (*s3.ListBucketsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := &s3.ListBucketsOutput{Owner: &types.Owner{ID: aws.String(canonicalID(call.Account))}, Buckets: []types.Bucket{}}
	for _, name := range core.SortedKeys(b.buckets) {
		if bk := b.buckets[name]; bk.owner == call.Account {
			out.Buckets = append(out.Buckets, types.Bucket{Name: aws.String(name), CreationDate: aws.Time(bk.created), BucketRegion: aws.String(bk.region)})
		}
	}
	return out, nil
}

func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]any{}
	for name, bk := range b.buckets {
		out[name] = map[string]any{"owner": bk.owner, "region": bk.region, "versioning": bk.versioning, "objects": core.SortedKeys(bk.objects)}
	}
	out["undeliveredNotifications"] = b.undelivered
	return out
}
