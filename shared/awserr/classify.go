// Package awserr classifies AWS API errors into the few classes a reconciler acts on.
package awserr

import (
	"context"
	"errors"
	"net"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"
)

// Class is what a reconciler does about an AWS error.
type Class string

const (
	// ClassNone is not an error.
	ClassNone Class = ""
	// ClassThrottling is a rate limit: retry later with backoff.
	ClassThrottling Class = "Throttling"
	// ClassNotFound means the resource does not exist.
	ClassNotFound Class = "NotFound"
	// ClassConflict means the resource is busy or exists already: retry later.
	ClassConflict Class = "Conflict"
	// ClassInvalidInput means AWS refused the request as malformed: retrying cannot help until
	// the spec changes.
	ClassInvalidInput Class = "InvalidInput"
	// ClassDependencyViolation means other resources still depend on this one.
	ClassDependencyViolation Class = "DependencyViolation"
	// ClassAccessDenied means the credentials lack a permission or are invalid.
	ClassAccessDenied Class = "AccessDenied"
	// ClassQuotaExceeded means an account limit was reached: retry later, after the quota is
	// raised or other resources are removed.
	ClassQuotaExceeded Class = "QuotaExceeded"
	// ClassUnavailable is a network failure or an AWS 5xx: retry later.
	ClassUnavailable Class = "Unavailable"
	// ClassUnknown is any other error: retry later.
	ClassUnknown Class = "Unknown"
)

// codes maps exact AWS error codes to classes. Codes are compared case-sensitively, as AWS
// sends them; suffix and prefix rules below catch the families of service-specific codes.
var codes = map[string]Class{
	"Throttling":                             ClassThrottling,
	"ThrottlingException":                    ClassThrottling,
	"ThrottledException":                     ClassThrottling,
	"RequestThrottled":                       ClassThrottling,
	"RequestThrottledException":              ClassThrottling,
	"TooManyRequestsException":               ClassThrottling,
	"ProvisionedThroughputExceededException": ClassThrottling,
	"RequestLimitExceeded":                   ClassThrottling,
	"SlowDown":                               ClassThrottling,
	"PriorRequestNotComplete":                ClassThrottling,
	"EC2ThrottledException":                  ClassThrottling,
	"BandwidthLimitExceeded":                 ClassThrottling,

	"NotFound":                  ClassNotFound,
	"NoSuchEntity":              ClassNotFound,
	"NoSuchBucket":              ClassNotFound,
	"NoSuchKey":                 ClassNotFound,
	"ResourceNotFoundException": ClassNotFound,
	"QueueDoesNotExist":         ClassNotFound,
	"AWS.SimpleQueueService.NonExistentQueue": ClassNotFound,
	"DBInstanceNotFound":                      ClassNotFound,
	"DBInstanceNotFoundFault":                 ClassNotFound,
	"DBClusterNotFoundFault":                  ClassNotFound,
	"DBClusterParameterGroupNotFound":         ClassNotFound,
	"NotFoundException":                       ClassNotFound,
	"LoadBalancerNotFound":                    ClassNotFound,
	"TargetGroupNotFound":                     ClassNotFound,
	"ListenerNotFound":                        ClassNotFound,
	"CacheClusterNotFound":                    ClassNotFound,
	"RepositoryNotFoundException":             ClassNotFound,
	"ClusterNotFoundException":                ClassNotFound,
	"NoSuchDistribution":                      ClassNotFound,

	"ResourceInUseException":      ClassConflict,
	"ResourceConflictException":   ClassConflict,
	"ConflictException":           ClassConflict,
	"OperationAbortedException":   ClassConflict,
	"OperationAborted":            ClassConflict,
	"IncorrectState":              ClassConflict,
	"IncorrectInstanceState":      ClassConflict,
	"InvalidDBInstanceState":      ClassConflict,
	"InvalidDBInstanceStateFault": ClassConflict,
	"InvalidDBSnapshotState":      ClassConflict,
	// An Aurora DB cluster (or its snapshot) in a state that refuses the call: it still has
	// member instances, is busy, or is not yet available.
	"InvalidDBClusterStateFault":                  ClassConflict,
	"InvalidDBClusterSnapshotStateFault":          ClassConflict,
	"ConcurrentModificationException":             ClassConflict,
	"BucketAlreadyOwnedByYou":                     ClassConflict,
	"AlreadyExistsException":                      ClassConflict,
	"EntityAlreadyExists":                         ClassConflict,
	"QueueDeletedRecently":                        ClassConflict,
	"AWS.SimpleQueueService.QueueDeletedRecently": ClassConflict,

	"DependencyViolation":    ClassDependencyViolation,
	"DeleteConflict":         ClassDependencyViolation,
	"BucketNotEmpty":         ClassDependencyViolation,
	"ResourceInUse":          ClassDependencyViolation,
	"InvalidIPAddress.InUse": ClassDependencyViolation,
	// RDS's refusal to delete a DB parameter group that instances still use.
	"InvalidDBParameterGroupState": ClassDependencyViolation,
	// ElastiCache's refusal to delete a cache parameter group that clusters still use.
	"InvalidCacheParameterGroupState": ClassDependencyViolation,
	"InvalidParameterCombination":     ClassInvalidInput,

	"AccessDenied":                ClassAccessDenied,
	"AccessDeniedException":       ClassAccessDenied,
	"UnauthorizedOperation":       ClassAccessDenied,
	"UnrecognizedClientException": ClassAccessDenied,
	"InvalidClientTokenId":        ClassAccessDenied,
	"SignatureDoesNotMatch":       ClassAccessDenied,
	"AuthFailure":                 ClassAccessDenied,
	"ExpiredToken":                ClassAccessDenied,
	"ExpiredTokenException":       ClassAccessDenied,
	"InvalidAccessKeyId":          ClassAccessDenied,
	"MissingAuthenticationToken":  ClassAccessDenied,
	"OptInRequired":               ClassAccessDenied,

	"ValidationError":           ClassInvalidInput,
	"ValidationException":       ClassInvalidInput,
	"InvalidParameterValue":     ClassInvalidInput,
	"InvalidParameterException": ClassInvalidInput,
	"InvalidParameter":          ClassInvalidInput,
	"InvalidInput":              ClassInvalidInput,
	"InvalidArgument":           ClassInvalidInput,
	"InvalidBucketName":         ClassInvalidInput,
	"MalformedPolicyDocument":   ClassInvalidInput,
	"MalformedPolicy":           ClassInvalidInput,
	"InvalidAttributeName":      ClassInvalidInput,
	"InvalidAttributeValue":     ClassInvalidInput,
	"InvalidRequest":            ClassInvalidInput,
	"BucketAlreadyExists":       ClassInvalidInput,
	"QueueAlreadyExists":        ClassInvalidInput,
	"TooManyTagsException":      ClassInvalidInput,

	// API Gateway's refusal of a request it finds invalid (a route, an integration, a stage).
	"BadRequestException": ClassInvalidInput,

	// KMS's refusal of a key policy (CreateKey, PutKeyPolicy).
	"MalformedPolicyDocumentException": ClassInvalidInput,

	// RDS refusals whose codes the rules below do not catch: the request asks for something
	// the engine, storage or subnet group cannot give, so it needs a spec change.
	"UnsupportedDBEngineVersion":           ClassInvalidInput,
	"StorageTypeNotSupported":              ClassInvalidInput,
	"StorageTypeNotAvailableFault":         ClassInvalidInput,
	"ProvisionedIopsNotAvailableInAZFault": ClassInvalidInput,
	"DBSubnetGroupDoesNotCoverEnoughAZs":   ClassInvalidInput,
	"NetworkTypeNotSupported":              ClassInvalidInput,
	"KMSKeyNotAccessibleFault":             ClassAccessDenied,

	// Account and service quotas: the request is valid and succeeds once the quota allows it
	// (a resource is deleted, or the quota is raised), so it is retried with backoff.
	"LimitExceededException":        ClassQuotaExceeded,
	"ServiceQuotaExceededException": ClassQuotaExceeded,
	"QuotaExceededException":        ClassQuotaExceeded,
	"TooManyBuckets":                ClassQuotaExceeded,
}

// Classify returns the class of err. Errors that are not AWS API errors are classified by
// their transport: a cancelled context or network failure is Unavailable.
func Classify(err error) Class {
	if err == nil {
		return ClassNone
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return classifyCode(apiErr.ErrorCode(), err)
	}
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, context.DeadlineExceeded) {
		return ClassUnavailable
	}
	var maxAttempts *retry.MaxAttemptsError
	if errors.As(err, &maxAttempts) {
		return ClassUnavailable
	}
	return ClassUnknown
}

func classifyCode(code string, err error) Class {
	if c, ok := codes[code]; ok {
		return c
	}
	switch {
	case strings.HasSuffix(code, ".NotFound"), strings.HasSuffix(code, "NotFound"),
		strings.HasSuffix(code, "NotFoundFault"), strings.HasPrefix(code, "NoSuch"):
		return ClassNotFound
	case strings.HasSuffix(code, ".Duplicate"), strings.HasSuffix(code, "AlreadyExists"),
		strings.HasSuffix(code, "AlreadyExistsFault"), strings.HasSuffix(code, ".InUse"):
		return ClassConflict
	case strings.HasSuffix(code, ".Malformed"), strings.HasSuffix(code, ".Range"),
		strings.HasSuffix(code, ".Conflict"), strings.HasPrefix(code, "Invalid"):
		return ClassInvalidInput
	case strings.HasSuffix(code, "LimitExceeded"), strings.HasSuffix(code, "LimitExceededFault"),
		strings.HasSuffix(code, "LimitExceededException"), strings.HasSuffix(code, "QuotaExceeded"),
		strings.HasSuffix(code, "QuotaExceededFault"), strings.HasSuffix(code, "QuotaExceededException"):
		return ClassQuotaExceeded
	case strings.Contains(code, "Throttl"):
		return ClassThrottling
	}
	var respErr interface{ HTTPStatusCode() int }
	if errors.As(err, &respErr) && respErr.HTTPStatusCode() >= 500 {
		return ClassUnavailable
	}
	return ClassUnknown
}

// Code returns the AWS error code of err, or "" when err is not an AWS API error.
func Code(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

// IsNotFound reports whether err says the resource does not exist.
func IsNotFound(err error) bool { return Classify(err) == ClassNotFound }

// Retryable reports whether retrying the same request later may succeed.
func (c Class) Retryable() bool {
	return c != ClassInvalidInput
}
