package data_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging"
	msgv1 "github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking"
	netv1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies every seed example of the data family, one after the other,
// with the emulator's default lifecycle durations and the operator's default options (a
// resource still being created is looked at again every 5s), and reports for each the AWS
// calls it took to create, the time from apply to Ready, and the AWS calls of one sync at
// steady state. Run it with -benchtime=1x: every example is created once.
func BenchmarkSeedExamples(b *testing.B) {
	// The messaging family serves the queue s3bucket-notifications.yaml notifies, the networking
	// family the subnets and security group of rdsdbcluster-aurora.yaml.
	h := launch(b, nil, func(*operator.Options) {}, messaging.Family(), networking.Family())
	for _, name := range []string{"production-aws", "aws-provider"} {
		h.provider("default", name)
	}
	h.secret("default", "postgres-password", "password", "postgres-Secret-1")
	h.secret("default", "mysql-password", "password", "mysql-Secret-1")
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	if _, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String("production-db-subnet-group"),
		DBSubnetGroupDescription: aws.String("production"), SubnetIds: []string{"subnet-0123456789abcdef0", "subnet-0123456789abcdef1"}}); err != nil {
		b.Fatal(err)
	}
	if _, err := c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("custom-mysql-params"),
		DBParameterGroupFamily: aws.String("mysql8.0"), Description: aws.String("custom")}); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ file, service string }{
		{"s3bucket-basic.yaml", "S3"}, {"s3bucket-versioning-encryption.yaml", "S3"}, {"s3bucket-lifecycle.yaml", "S3"},
		{"s3bucket-quickstart.yaml", "S3"}, {"s3bucket-serverless.yaml", "S3"}, {"dynamodbtable-basic.yaml", "DynamoDB"},
		{"dynamodbtable-provisioned.yaml", "DynamoDB"}, {"dynamodbtable-serverless.yaml", "DynamoDB"},
		{"rdsinstance-postgres.yaml", "RDS"}, {"rdsinstance-mysql.yaml", "RDS"}, {"s3bucket-notifications.yaml", "S3+SQS"},
		{"rdsdbparametergroup.yaml", "RDS"}, {"rdsdbcluster-aurora.yaml", "RDS"},
	} {
		b.Run(tc.file, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.t = b
			if tc.file == "s3bucket-notifications.yaml" {
				queue := kubetest.ApplySeed(b, h.env.Client, filepath.Join("..", "..", "examples", "messaging", "sqsqueue-serverless.yaml"), "default")[0]
				waitReady(h, &msgv1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: queue.GetNamespace(), Name: queue.GetName()}})
			}
			if tc.file == "rdsdbcluster-aurora.yaml" {
				// The VPC of examples/networking/multi-tier-references.yaml, which the example's
				// subnets and security group are in.
				vpc := &netv1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app-vpc"},
					Spec: netv1.VPCSpec{ManagedSpec: shared.ManagedSpec{ProviderRef: shared.ProviderReference{Name: "production-aws"}}, CIDRBlock: "10.0.0.0/16"}}
				h.create(vpc)
				waitReady(h, vpc)
			}
			h.emu.Calls.Reset()
			began := time.Now()
			o := seedObject(h, tc.file)
			waitReady(h, o)
			elapsed := time.Since(began)
			create := h.callsOf(tc.service)
			h.emu.Calls.Reset()
			h.resync(o)
			waitFor(h, o, time.Minute, "a sync", func(o shared.Managed) bool { return h.callsOf(tc.service) > 0 })
			time.Sleep(500 * time.Millisecond)
			sync := h.callsOf(tc.service)
			b.ReportMetric(float64(create), "create-calls")
			b.ReportMetric(elapsed.Seconds(), "s-to-ready")
			b.ReportMetric(float64(sync), "sync-calls")
			b.Logf("%s: %d %s calls to create, Ready after %s, %d calls per steady-state sync", tc.file, create, tc.service,
				elapsed.Round(10*time.Millisecond), sync)
		})
	}
}

// callsOf returns how many calls the emulator answered for the services named, joined by +.
func (h *harness) callsOf(services string) int {
	n := 0
	for _, svc := range strings.Split(services, "+") {
		n += total(h.calls(svc))
	}
	return n
}

// seedObject applies a seed file into namespace default, puts a well-formed id where the
// example has the sg-xxx placeholder, and returns the file's last object typed: the example's
// own (a file that holds what its object refers to lists those first).
func seedObject(h *harness, file string) shared.Managed {
	objs := h.applySeed(file, "default")
	u := objs[len(objs)-1]
	if ids, _, _ := unstructured.NestedStringSlice(u.Object, "spec", "vpcSecurityGroupIDs"); len(ids) > 0 {
		patch := []byte(`{"spec":{"vpcSecurityGroupIDs":["` + wellFormedSG + `"]}}`)
		if err := h.env.Client.Patch(context.Background(), u, client.RawPatch(types.MergePatchType, patch)); err != nil {
			h.t.Fatal(err)
		}
	}
	var o shared.Managed
	switch u.GetKind() {
	case "S3Bucket":
		o = &v1alpha1.S3Bucket{}
	case "DynamoDBTable":
		o = &v1alpha1.DynamoDBTable{}
	case "RDSDBParameterGroup":
		o = &v1alpha1.RDSDBParameterGroup{}
	case "RDSDBCluster":
		o = &v1alpha1.RDSDBCluster{}
	default:
		o = &v1alpha1.RDSInstance{}
	}
	o.SetNamespace(u.GetNamespace())
	o.SetName(u.GetName())
	return o
}
