package awserr

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"
)

func TestClassify(t *testing.T) {
	api := func(code string) error { return &smithy.GenericAPIError{Code: code, Message: "m"} }
	cases := map[string]struct {
		reason string
		args   error
		want   Class
	}{
		"Nil":                       {reason: "No error is no class.", args: nil, want: ClassNone},
		"Throttling":                {reason: "Query-protocol throttling.", args: api("Throttling"), want: ClassThrottling},
		"EC2Throttling":             {reason: "EC2's rate limit.", args: api("RequestLimitExceeded"), want: ClassThrottling},
		"S3SlowDown":                {reason: "S3's throttling.", args: api("SlowDown"), want: ClassThrottling},
		"EC2NotFound":               {reason: "EC2's dotted not-found codes.", args: api("InvalidVpcID.NotFound"), want: ClassNotFound},
		"SQSNotFound":               {reason: "SQS's legacy not-found code.", args: api("AWS.SimpleQueueService.NonExistentQueue"), want: ClassNotFound},
		"RDSNotFound":               {reason: "RDS's fault-suffixed code.", args: api("DBInstanceNotFoundFault"), want: ClassNotFound},
		"RDSGroupNotFound":          {reason: "A DB subnet group that does not exist, named by its fault code.", args: api("DBSubnetGroupNotFoundFault"), want: ClassNotFound},
		"RDSParameterGroupNotFound": {reason: "A DB parameter group that does not exist.", args: api("DBParameterGroupNotFound"), want: ClassNotFound},
		"RDSExists":                 {reason: "A DB instance name that is taken is retried (and then claimed or refused).", args: api("DBInstanceAlreadyExists"), want: ClassConflict},
		"RDSClusterNotFound":        {reason: "An Aurora DB cluster that does not exist.", args: api("DBClusterNotFoundFault"), want: ClassNotFound},
		"RDSClusterGroupNotFound":   {reason: "A DB cluster parameter group that does not exist.", args: api("DBClusterParameterGroupNotFound"), want: ClassNotFound},
		"RDSClusterExists":          {reason: "A DB cluster name that is taken, as a DB instance name.", args: api("DBClusterAlreadyExistsFault"), want: ClassConflict},
		"RDSClusterState":           {reason: "A cluster with members, busy or protected is retried.", args: api("InvalidDBClusterStateFault"), want: ClassConflict},
		"RDSState":                  {reason: "An instance in a state that refuses the call is retried.", args: api("InvalidDBInstanceState"), want: ClassConflict},
		"RDSCombination":            {reason: "An invalid combination of RDS settings needs a spec change.", args: api("InvalidParameterCombination"), want: ClassInvalidInput},
		"RDSVersion":                {reason: "An engine version RDS does not offer needs a spec change.", args: api("UnsupportedDBEngineVersion"), want: ClassInvalidInput},
		"Dependency":                {reason: "EC2's dependency violation.", args: api("DependencyViolation"), want: ClassDependencyViolation},
		"BucketNotEmpty":            {reason: "A non-empty bucket cannot be deleted yet.", args: api("BucketNotEmpty"), want: ClassDependencyViolation},
		"CacheParameterGroupInUse":  {reason: "A cache parameter group clusters still use cannot be deleted yet.", args: api("InvalidCacheParameterGroupState"), want: ClassDependencyViolation},
		"InUse":                     {reason: "A busy resource is retried.", args: api("ResourceInUseException"), want: ClassConflict},
		"AddressInUse":              {reason: "An Elastic IP a NAT gateway or an interface still uses cannot be released yet.", args: api("InvalidIPAddress.InUse"), want: ClassDependencyViolation},
		"Duplicate":                 {reason: "EC2's duplicate-rule codes.", args: api("InvalidPermission.Duplicate"), want: ClassConflict},
		"Invalid":                   {reason: "A malformed request needs a spec change.", args: api("InvalidParameterValue"), want: ClassInvalidInput},
		"APIGatewayBadRequest":      {reason: "A request API Gateway finds invalid needs a spec change.", args: api("BadRequestException"), want: ClassInvalidInput},
		"KMSPolicy":                 {reason: "A key policy KMS refuses needs a spec change.", args: api("MalformedPolicyDocumentException"), want: ClassInvalidInput},
		"EC2Range":                  {reason: "An invalid CIDR range.", args: api("InvalidVpc.Range"), want: ClassInvalidInput},
		"AccessDenied":              {reason: "Missing permissions.", args: api("AccessDenied"), want: ClassAccessDenied},
		"BadToken":                  {reason: "Invalid credentials, although the code starts with Invalid.", args: api("InvalidClientTokenId"), want: ClassAccessDenied},
		"Quota":                     {reason: "An account limit.", args: api("VpcLimitExceeded"), want: ClassQuotaExceeded},
		"LimitExceededException":    {reason: "Lambda, IAM and DynamoDB quotas are retried, not terminal.", args: api("LimitExceededException"), want: ClassQuotaExceeded},
		"ServiceQuota":              {reason: "A service quota.", args: api("ServiceQuotaExceededException"), want: ClassQuotaExceeded},
		"Wrapped":                   {reason: "Context wrapping does not hide the code.", args: fmt.Errorf("describe vpc: %w", api("InvalidVpcID.NotFound")), want: ClassNotFound},
		"Network":                   {reason: "A network failure is retried.", args: &net.OpError{Op: "dial", Err: errors.New("refused")}, want: ClassUnavailable},
		"Deadline":                  {reason: "A timeout is retried.", args: context.DeadlineExceeded, want: ClassUnavailable},
		"Other":                     {reason: "Anything else is unknown and retried.", args: errors.New("boom"), want: ClassUnknown},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Classify(tc.args)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDescribeIsStable(t *testing.T) {
	err := &smithy.OperationError{ServiceID: "EC2", OperationName: "CreateVpc",
		Err: fmt.Errorf("https response error StatusCode: 400, RequestID: 1234: %w",
			&smithy.GenericAPIError{Code: "InvalidParameterValue", Message: "bad CIDR"})}
	want := "EC2 CreateVpc: InvalidParameterValue: bad CIDR"
	if diff := cmp.Diff(want, Describe(err)); diff != "" {
		t.Errorf("Describe must drop request IDs\n-want +got:\n%s", diff)
	}
}
