package emulator_test

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// essentialReads are the reads that tools call on every resource the emulator holds: Terraform's
// resources refresh with them, and a peer controller observing a single resource calls them on
// each reconcile. A missing one makes such a tool fail against the sandbox, so the test fails
// when any of them is missing from the emulator. S3's are every read Terraform's
// aws_s3_bucket makes on each refresh.
var essentialReads = map[string][]string{
	"S3": {"HeadBucket", "GetBucketLocation", "GetBucketAbac", "GetBucketAcl", "GetBucketAccelerateConfiguration", "GetBucketCors",
		"GetBucketEncryption", "GetBucketLifecycleConfiguration", "GetBucketLogging", "GetBucketNotificationConfiguration",
		"GetBucketOwnershipControls", "GetBucketPolicy", "GetBucketPolicyStatus", "GetBucketReplication",
		"GetBucketRequestPayment", "GetBucketTagging", "GetBucketVersioning", "GetBucketWebsite", "GetObjectLockConfiguration",
		"GetPublicAccessBlock", "ListBucketAnalyticsConfigurations", "ListBucketIntelligentTieringConfigurations",
		"ListBucketInventoryConfigurations", "ListBucketMetricsConfigurations", "ListObjectsV2", "ListObjectVersions",
		"GetObjectTagging", "HeadObject"},
	"SQS": {"GetQueueUrl", "GetQueueAttributes", "ListQueueTags", "ListDeadLetterSourceQueues"},
	"SNS": {"GetTopicAttributes", "ListTagsForResource", "ListSubscriptionsByTopic", "GetSubscriptionAttributes"},
	"KMS": {"DescribeKey", "GetKeyPolicy", "GetKeyRotationStatus", "ListResourceTags", "ListAliases"},
	"IAM": {"GetRole", "GetRolePolicy", "ListRolePolicies", "ListAttachedRolePolicies", "ListInstanceProfilesForRole", "GetPolicy", "GetPolicyVersion"},
	"ELBv2": {"DescribeLoadBalancers", "DescribeLoadBalancerAttributes", "DescribeTargetGroups", "DescribeTargetGroupAttributes",
		"DescribeListeners", "DescribeRules", "DescribeTargetHealth", "DescribeTags"},
	"Lambda":         {"GetFunction", "GetFunctionConcurrency", "GetFunctionCodeSigningConfig", "ListVersionsByFunction", "ListAliases"},
	"DynamoDB":       {"DescribeTable", "DescribeContinuousBackups", "DescribeTimeToLive", "ListTagsOfResource"},
	"SecretsManager": {"DescribeSecret", "GetResourcePolicy"},
	"ECR":            {"DescribeRepositories", "GetLifecyclePolicy", "GetRepositoryPolicy", "ListTagsForResource"},
	"Route53":        {"GetHostedZone", "ListResourceRecordSets", "ListTagsForResource", "GetChange"},
}

// modelNames are the model files (emulator/internal/models/apis) of the JSON services whose
// Service carries no model.
var modelNames = map[string]string{"ACM": "acm", "KMS": "kms", "SecretsManager": "secretsmanager"}

// sdkClients are the aws-sdk-go-v2 clients of the services without a model file: their
// methods are the services' operations.
var sdkClients = map[string]any{"SQS": &sqs.Client{}, "DynamoDB": &dynamodb.Client{}, "ECR": &ecr.Client{}, "ECS": &ecs.Client{}}

// operationsOf returns every operation of the service with ID id, from its API model or its SDK
// client.
func operationsOf(t *testing.T, id string, model *models.Model) []string {
	t.Helper()
	if model == nil && modelNames[id] != "" {
		m, err := models.Load(modelNames[id])
		if err != nil {
			t.Fatal(err)
		}
		model = m
	}
	var ops []string
	switch {
	case model != nil:
		for op := range model.Operations {
			ops = append(ops, op)
		}
	case sdkClients[id] != nil:
		ctx := reflect.TypeOf((*context.Context)(nil)).Elem()
		client := reflect.TypeOf(sdkClients[id])
		for i := range client.NumMethod() {
			m := client.Method(i)
			if m.Type.NumIn() == 4 && m.Type.In(1) == ctx && strings.HasSuffix(m.Type.In(2).Elem().Name(), "Input") {
				ops = append(ops, m.Name)
			}
		}
	default:
		t.Fatalf("no operation list for %s: add its model or SDK client", id)
	}
	sort.Strings(ops)
	return ops
}

// isRead reports whether an operation only reads: Get*, Describe*, List* or Head*.
func isRead(op string) bool {
	for _, prefix := range []string{"Get", "Describe", "List", "Head"} {
		if strings.HasPrefix(op, prefix) {
			return true
		}
	}
	return false
}

// TestReadsCoverage logs, per emulated service, the read operations of its API that the
// emulator does not implement (they answer the protocol's unknown-operation error), and fails
// when one of essentialReads is among them.
func TestReadsCoverage(t *testing.T) {
	services := emulator.New(emulator.Options{}).Services()
	sort.Slice(services, func(i, j int) bool { return services[i].ID < services[j].ID })
	seen := map[string]bool{}
	for _, svc := range services {
		seen[svc.ID] = true
		var missing []string
		reads := 0
		for _, op := range operationsOf(t, svc.ID, svc.Model) {
			if !isRead(op) {
				continue
			}
			reads++
			if _, ok := svc.Operations[op]; !ok {
				missing = append(missing, op)
			}
		}
		t.Logf("%s: %d of %d reads implemented; missing: %s", svc.ID, reads-len(missing), reads, strings.Join(missing, ", "))
		for _, op := range essentialReads[svc.ID] {
			if _, ok := svc.Operations[op]; !ok {
				t.Errorf("%s.%s is a read tools call on every resource, and the emulator does not implement it", svc.ID, op)
			}
		}
	}
	for id := range essentialReads {
		if !seen[id] {
			t.Errorf("essentialReads names %s, which the emulator does not emulate", id)
		}
	}
}
