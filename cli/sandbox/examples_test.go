package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// object returns an object of kind (of the infra-operator group unless kind is Secret) with spec.
func object(kind, name string, spec map[string]any) *unstructured.Unstructured {
	apiVersion := "aws-infra-operator.runner.codes/v1alpha1"
	if kind == "Secret" {
		apiVersion = "v1"
	}
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind,
		"metadata": map[string]any{"name": name}, "spec": spec}}
}

// TestReplacePlaceholders checks what each kind of placeholder becomes, and that real ids and
// objects of other API groups are left alone.
func TestReplacePlaceholders(t *testing.T) {
	b := Baseline{DefaultVPC: "vpc-0default", DefaultSubnets: []string{"subnet-0a", "subnet-0b"}, DefaultSecurityGroup: "sg-0default", VPC: "vpc-0sandbox"}
	type args struct {
		o    *unstructured.Unstructured
		file []*unstructured.Unstructured
	}
	type want struct {
		spec  map[string]any
		notes int
	}
	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"SecurityGroupAndSubnet": {
			reason: "sg-xxx and subnet-xxx in a list or a field become the default VPC's security group and first subnet.",
			args:   args{o: object("EC2Instance", "web", map[string]any{"subnetID": "subnet-xxx", "securityGroupIDs": []any{"sg-xxx"}})},
			want:   want{spec: map[string]any{"subnetID": "subnet-0a", "securityGroupIDs": []any{"sg-0default"}}, notes: 2},
		},
		"VPCOfTheFile": {
			reason: "A VPC placeholder in a file that makes a VPC names that VPC by reference.",
			args: args{o: object("Subnet", "s", map[string]any{"vpcID": "vpc-xxx"}),
				file: []*unstructured.Unstructured{object("VPC", "app-vpc", map[string]any{})}},
			want: want{spec: map[string]any{"vpcRef": map[string]any{"name": "app-vpc"}}, notes: 1},
		},
		"PublicSubnetOfTheFile": {
			reason: "A subnet placeholder in a file that makes subnets names its first public one.",
			args: args{o: object("NATGateway", "nat", map[string]any{"subnetID": "subnet-xxx"}),
				file: []*unstructured.Unstructured{object("Subnet", "private", map[string]any{}), object("Subnet", "public", map[string]any{"mapPublicIpOnLaunch": true})}},
			want: want{spec: map[string]any{"subnetRef": map[string]any{"name": "public"}}, notes: 1},
		},
		"SeedID": {
			reason: "A made-up id of the seed names the object of the seed it stands for.",
			args:   args{o: object("InternetGateway", "igw", map[string]any{"vpcID": "vpc-f3ea9b1b36fce09cd"})},
			want:   want{spec: map[string]any{"vpcRef": map[string]any{"name": "production-vpc"}}, notes: 1},
		},
		"VPCElsewhere": {
			reason: "A VPC placeholder in a file that makes no VPC becomes the sandbox's VPC.",
			args:   args{o: object("Subnet", "s", map[string]any{"vpcID": "vpc-xxx"})},
			want:   want{spec: map[string]any{"vpcID": "vpc-0sandbox"}, notes: 1},
		},
		"Account": {
			reason: "An ARN of the placeholder account xxx gets the sandbox's account.",
			args:   args{o: object("LambdaFunction", "f", map[string]any{"roleARN": "arn:aws:iam::xxx:role/lambda-role"})},
			want:   want{spec: map[string]any{"roleARN": "arn:aws:iam::123456789012:role/lambda-role"}, notes: 1},
		},
		"RealIDs": {
			reason: "Ids that are no placeholders are kept.",
			args:   args{o: object("Subnet", "s", map[string]any{"vpcID": "vpc-0123456789abcdef0", "tags": map[string]any{"Name": "sg-xxx-like"}})},
			want:   want{spec: map[string]any{"vpcID": "vpc-0123456789abcdef0", "tags": map[string]any{"Name": "sg-xxx-like"}}},
		},
		"OtherGroup": {
			reason: "Objects of other API groups are not the operators' and are kept as they are.",
			args:   args{o: object("Secret", "s", map[string]any{"value": "sg-xxx"})},
			want:   want{spec: map[string]any{"value": "sg-xxx"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			notes := replacePlaceholders(tc.args.o, tc.args.file, b)
			if diff := cmp.Diff(tc.want.spec, tc.args.o.Object["spec"]); diff != "" {
				t.Errorf("%s\nspec (-want +got):\n%s", tc.reason, diff)
			}
			if len(notes) != tc.want.notes {
				t.Errorf("%s\nnotes: %q, want %d", tc.reason, notes, tc.want.notes)
			}
		})
	}
}

// TestPlanExamplesRefusesTwoObjectsOfOneName checks that two example files making the same
// object in the same namespace are refused, naming both, rather than one silently replacing the
// other.
func TestPlanExamplesRefusesTwoObjectsOfOneName(t *testing.T) {
	root := t.TempDir()
	queue := "apiVersion: aws-infra-operator.runner.codes/v1alpha1\nkind: SQSQueue\nmetadata:\n  name: orders\nspec:\n  queueName: orders\n"
	for _, d := range ExampleDirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, d, "queue.yaml"), []byte(queue), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := PlanExamples(root, Baseline{DefaultSubnets: []string{"subnet-0"}}, "http://127.0.0.1:1")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "sandbox", "queue.yaml")) || !strings.Contains(err.Error(), "SQSQueue default/orders") {
		t.Errorf("PlanExamples: %v, want a refusal naming both files and the object", err)
	}
}
