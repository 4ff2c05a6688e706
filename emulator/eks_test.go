package emulator_test

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// eksTransition is the EKS lifecycle step with the emulator's defaults.
const eksTransition = 2 * time.Second

// eksNetwork is what the EKS tests put clusters in: a VPC with subnets in us-east-1a and
// us-east-1b, a third in us-east-1a and one in us-east-1e (where EKS runs no control planes), a
// security group, and a second VPC with a subnet and a group.
type eksNetwork struct {
	vpc, group              string
	subnets                 []string
	sameZone, badZone       string
	otherSubnet, otherGroup string
	url                     string // the emulator's
}

// zoneSubnet creates a subnet in an availability zone and returns its id.
func zoneSubnet(t *testing.T, c *ec2.Client, vpc, cidr, zone string) string {
	t.Helper()
	out, err := c.CreateSubnet(context.Background(), &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String(cidr), AvailabilityZone: aws.String(zone)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.Subnet.SubnetId)
}

// eksClient starts an emulator with a frozen clock and returns it with an EKS client and an
// emulated network, with the emulator's URL.
func eksClient(t *testing.T) (*emulator.Server, *eks.Client, eksNetwork) {
	t.Helper()
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	cfg := sdkConfig(t, url, "AKID", 1)
	c := ec2.NewFromConfig(cfg)
	n := eksNetwork{vpc: createVpc(t, c, "10.0.0.0/16"), url: url}
	n.subnets = []string{zoneSubnet(t, c, n.vpc, "10.0.1.0/24", "us-east-1a"), zoneSubnet(t, c, n.vpc, "10.0.2.0/24", "us-east-1b")}
	n.sameZone = zoneSubnet(t, c, n.vpc, "10.0.3.0/24", "us-east-1a")
	n.badZone = zoneSubnet(t, c, n.vpc, "10.0.4.0/24", "us-east-1e")
	n.group = createGroup(t, c, n.vpc, "eks-control-plane")
	other := createVpc(t, c, "10.1.0.0/16")
	n.otherSubnet, n.otherGroup = zoneSubnet(t, c, other, "10.1.1.0/24", "us-east-1b"), createGroup(t, c, other, "elsewhere")
	return e, eks.NewFromConfig(cfg), n
}

// clusterInput is the CreateCluster request of the seed cluster.
func clusterInput(name string, n eksNetwork) *eks.CreateClusterInput {
	return &eks.CreateClusterInput{
		Name: aws.String(name), Version: aws.String("1.31"), RoleArn: aws.String("arn:aws:iam::123456789012:role/eks-cluster-role"),
		ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: n.subnets, SecurityGroupIds: []string{n.group},
			EndpointPublicAccess: aws.Bool(true), EndpointPrivateAccess: aws.Bool(true), PublicAccessCidrs: []string{"203.0.113.0/24"}},
		Logging: &types.Logging{ClusterLogging: []types.LogSetup{{Enabled: aws.Bool(true), Types: []types.LogType{types.LogTypeApi, types.LogTypeAudit}}}},
		Tags:    map[string]string{"team": "platform"},
	}
}

// activeCluster creates a cluster and advances the clock until it is ACTIVE.
func activeCluster(t *testing.T, e *emulator.Server, c *eks.Client, in *eks.CreateClusterInput) *types.Cluster {
	t.Helper()
	if _, err := c.CreateCluster(context.Background(), in); err != nil {
		t.Fatalf("create cluster %s: %v", aws.ToString(in.Name), err)
	}
	e.Clock.Advance(eksTransition)
	return describeCluster(t, c, aws.ToString(in.Name))
}

func describeCluster(t *testing.T, c *eks.Client, name string) *types.Cluster {
	t.Helper()
	out, err := c.DescribeCluster(context.Background(), &eks.DescribeClusterInput{Name: aws.String(name)})
	if err != nil {
		t.Fatalf("describe cluster %s: %v", name, err)
	}
	return out.Cluster
}

var (
	endpointPattern = regexp.MustCompile(`^https://[0-9A-F]{32}\.[a-z]{2}[0-9]\.us-east-1\.eks\.amazonaws\.com$`)
	issuerPattern   = regexp.MustCompile(`^https://oidc\.eks\.us-east-1\.amazonaws\.com/id/[0-9A-F]{32}$`)
)

// TestEKSClusterLifecycle creates the seed cluster, follows it from CREATING (no endpoint yet)
// to ACTIVE with its endpoint, certificate authority and OIDC issuer, repeats the create with
// the same token and another, and deletes it.
func TestEKSClusterLifecycle(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	in := clusterInput("production", n)
	in.ClientRequestToken = aws.String("create-production-1")
	created, err := c.CreateCluster(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	got := created.Cluster
	if got.Status != types.ClusterStatusCreating || got.Endpoint != nil || got.CertificateAuthority != nil || got.Identity != nil {
		t.Errorf("a new cluster is %s with endpoint %v; want CREATING without endpoint, CA or issuer", got.Status, got.Endpoint)
	}
	if aws.ToString(got.Arn) != "arn:aws:eks:us-east-1:000000000000:cluster/production" || aws.ToString(got.Version) != "1.31" ||
		aws.ToString(got.PlatformVersion) == "" || got.CreatedAt == nil || got.Tags["team"] != "platform" {
		t.Errorf("new cluster = %+v", got)
	}
	vpc := got.ResourcesVpcConfig
	if aws.ToString(vpc.VpcId) != n.vpc || !strings.HasPrefix(aws.ToString(vpc.ClusterSecurityGroupId), "sg-") || !vpc.EndpointPrivateAccess ||
		!vpc.EndpointPublicAccess || strings.Join(vpc.PublicAccessCidrs, ",") != "203.0.113.0/24" || len(vpc.SubnetIds) != 2 || vpc.SecurityGroupIds[0] != n.group {
		t.Errorf("resourcesVpcConfig = %+v", vpc)
	}
	if l := got.Logging.ClusterLogging; len(l) != 2 || !aws.ToBool(l[0].Enabled) || len(l[0].Types) != 2 || aws.ToBool(l[1].Enabled) || len(l[1].Types) != 3 {
		t.Errorf("logging = %+v; want api and audit enabled, the other three disabled", l)
	}
	if net := got.KubernetesNetworkConfig; net.IpFamily != types.IpFamilyIpv4 || aws.ToString(net.ServiceIpv4Cidr) != "172.20.0.0/16" {
		t.Errorf("kubernetesNetworkConfig = %+v", net)
	}

	again, err := c.CreateCluster(ctx, in)
	if err != nil || aws.ToString(again.Cluster.Arn) != aws.ToString(got.Arn) {
		t.Errorf("repeating the create with its token = %v; want the same cluster", err)
	}
	in.ClientRequestToken = aws.String("create-production-2")
	if _, err := c.CreateCluster(ctx, in); errorCode(err) != "ResourceInUseException" {
		t.Errorf("creating the name again with another token gave %v; want ResourceInUseException", err)
	}

	e.Clock.Advance(eksTransition - time.Millisecond)
	if s := describeCluster(t, c, "production").Status; s != types.ClusterStatusCreating {
		t.Errorf("just before the transition ends the cluster is %s", s)
	}
	e.Clock.Advance(time.Millisecond)
	active := describeCluster(t, c, "production")
	if active.Status != types.ClusterStatusActive || !endpointPattern.MatchString(aws.ToString(active.Endpoint)) ||
		!issuerPattern.MatchString(aws.ToString(active.Identity.Oidc.Issuer)) {
		t.Fatalf("active cluster: status %s, endpoint %q, issuer %q", active.Status, aws.ToString(active.Endpoint), aws.ToString(active.Identity.Oidc.Issuer))
	}
	if id := strings.Split(strings.TrimPrefix(aws.ToString(active.Endpoint), "https://"), ".")[0]; !strings.HasSuffix(aws.ToString(active.Identity.Oidc.Issuer), id) {
		t.Errorf("the OIDC issuer %s does not end in the endpoint's id %s", aws.ToString(active.Identity.Oidc.Issuer), id)
	}
	checkCA(t, aws.ToString(active.CertificateAuthority.Data))

	deleted, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: aws.String("production")})
	if err != nil || deleted.Cluster.Status != types.ClusterStatusDeleting {
		t.Fatalf("DeleteCluster = %v, %v; want DELETING", deleted, err)
	}
	e.Clock.Advance(eksTransition)
	if _, err := c.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String("production")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("describing the deleted cluster gave %v", err)
	}
	if _, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: aws.String("production")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("deleting it again gave %v", err)
	}
}

// checkCA checks that certificateAuthority.data is a base64 PEM CA certificate for
// "kubernetes", as kubeconfigs use it.
func checkCA(t *testing.T, data string) {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatalf("certificateAuthority.data is not base64: %v", err)
	}
	block, _ := pem.Decode(raw)
	if block == nil || block.Type != "CERTIFICATE" {
		t.Fatalf("certificateAuthority.data is not a PEM certificate: %q", raw)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil || !cert.IsCA || cert.Subject.CommonName != "kubernetes" {
		t.Errorf("CA certificate = %v, %v; want a CA for kubernetes", cert, err)
	}
}

// TestEKSClusterDefaults creates a cluster with only what AWS requires, and lists clusters a
// page at a time.
func TestEKSClusterDefaults(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	for _, name := range []string{"alpha", "bravo", "charlie"} {
		in := &eks.CreateClusterInput{Name: aws.String(name), RoleArn: aws.String("arn:aws:iam::123456789012:role/eks"),
			ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: n.subnets}}
		if _, err := c.CreateCluster(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	e.Clock.Advance(eksTransition)
	got := describeCluster(t, c, "alpha")
	if aws.ToString(got.Version) != "1.33" || got.Status != types.ClusterStatusActive || !got.ResourcesVpcConfig.EndpointPublicAccess ||
		got.ResourcesVpcConfig.EndpointPrivateAccess || got.ResourcesVpcConfig.PublicAccessCidrs[0] != "0.0.0.0/0" || len(got.ResourcesVpcConfig.SecurityGroupIds) != 0 {
		t.Errorf("default cluster = %+v, vpc %+v", got, got.ResourcesVpcConfig)
	}
	if l := got.Logging.ClusterLogging; len(l) != 1 || aws.ToBool(l[0].Enabled) || len(l[0].Types) != 5 {
		t.Errorf("default logging = %+v; want every type disabled", l)
	}
	if got.AccessConfig.AuthenticationMode != types.AuthenticationModeConfigMap || got.UpgradePolicy.SupportType != types.SupportTypeExtended || len(got.EncryptionConfig) != 0 {
		t.Errorf("access %+v, upgrade policy %+v, encryption %+v", got.AccessConfig, got.UpgradePolicy, got.EncryptionConfig)
	}
	first, err := c.ListClusters(ctx, &eks.ListClustersInput{MaxResults: aws.Int32(2)})
	if err != nil || strings.Join(first.Clusters, ",") != "alpha,bravo" || first.NextToken == nil {
		t.Fatalf("first page = %+v, %v", first, err)
	}
	second, err := c.ListClusters(ctx, &eks.ListClustersInput{MaxResults: aws.Int32(2), NextToken: first.NextToken})
	if err != nil || strings.Join(second.Clusters, ",") != "charlie" || second.NextToken != nil {
		t.Errorf("second page = %+v, %v", second, err)
	}
	if _, err := c.ListClusters(ctx, &eks.ListClustersInput{MaxResults: aws.Int32(101)}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("maxResults 101 gave %v", err)
	}
}

// TestEKSCreateClusterValidation checks CreateCluster's refusals, each with AWS's error code.
func TestEKSCreateClusterValidation(t *testing.T) {
	_, c, n := eksClient(t)
	cases := map[string]struct {
		change func(in *eks.CreateClusterInput)
		code   string
	}{
		"name with a dot":     {func(in *eks.CreateClusterInput) { in.Name = aws.String("bad.name") }, "InvalidParameterException"},
		"name of 101":         {func(in *eks.CreateClusterInput) { in.Name = aws.String(strings.Repeat("a", 101)) }, "InvalidParameterException"},
		"role not an ARN":     {func(in *eks.CreateClusterInput) { in.RoleArn = aws.String("eks-cluster-role") }, "InvalidParameterException"},
		"unsupported version": {func(in *eks.CreateClusterInput) { in.Version = aws.String("1.24") }, "InvalidParameterException"},
		"one subnet":          {func(in *eks.CreateClusterInput) { in.ResourcesVpcConfig.SubnetIds = n.subnets[:1] }, "InvalidParameterException"},
		"one zone":            {func(in *eks.CreateClusterInput) { in.ResourcesVpcConfig.SubnetIds = []string{n.subnets[0], n.sameZone} }, "InvalidParameterException"},
		"unknown subnet": {func(in *eks.CreateClusterInput) {
			in.ResourcesVpcConfig.SubnetIds = []string{n.subnets[0], "subnet-0123456789abcdef0"}
		}, "InvalidParameterException"},
		"subnets of two VPCs": {func(in *eks.CreateClusterInput) {
			in.ResourcesVpcConfig.SubnetIds = []string{n.subnets[0], n.otherSubnet}
		}, "InvalidParameterException"},
		"zone without EKS": {func(in *eks.CreateClusterInput) { in.ResourcesVpcConfig.SubnetIds = []string{n.subnets[0], n.badZone} }, "UnsupportedAvailabilityZoneException"},
		"unknown group": {func(in *eks.CreateClusterInput) {
			in.ResourcesVpcConfig.SecurityGroupIds = []string{"sg-0123456789abcdef0"}
		}, "InvalidParameterException"},
		"group of another VPC": {func(in *eks.CreateClusterInput) { in.ResourcesVpcConfig.SecurityGroupIds = []string{n.otherGroup} }, "InvalidParameterException"},
		"no endpoint": {func(in *eks.CreateClusterInput) {
			in.ResourcesVpcConfig.EndpointPublicAccess, in.ResourcesVpcConfig.EndpointPrivateAccess = aws.Bool(false), aws.Bool(false)
		}, "InvalidParameterException"},
		"private public CIDR": {func(in *eks.CreateClusterInput) { in.ResourcesVpcConfig.PublicAccessCidrs = []string{"10.0.0.0/8"} }, "InvalidParameterException"},
		"unknown log type": {func(in *eks.CreateClusterInput) {
			in.Logging.ClusterLogging[0].Types = []types.LogType{"kubelet"}
		}, "InvalidParameterException"},
		"encryption without key": {func(in *eks.CreateClusterInput) {
			in.EncryptionConfig = []types.EncryptionConfig{{Resources: []string{"secrets"}, Provider: &types.Provider{}}}
		}, "InvalidParameterException"},
		"encryption of configmaps": {func(in *eks.CreateClusterInput) {
			in.EncryptionConfig = []types.EncryptionConfig{{Resources: []string{"configmaps"}, Provider: &types.Provider{KeyArn: aws.String(kmsKey)}}}
		}, "InvalidParameterException"},
		"key of another region": {func(in *eks.CreateClusterInput) {
			in.EncryptionConfig = []types.EncryptionConfig{{Resources: []string{"secrets"}, Provider: &types.Provider{KeyArn: aws.String(strings.Replace(kmsKey, "us-east-1", "eu-west-1", 1))}}}
		}, "InvalidParameterException"},
		"service CIDR public": {func(in *eks.CreateClusterInput) {
			in.KubernetesNetworkConfig = &types.KubernetesNetworkConfigRequest{ServiceIpv4Cidr: aws.String("8.8.0.0/16")}
		}, "InvalidParameterException"},
		"aws: tag": {func(in *eks.CreateClusterInput) { in.Tags = map[string]string{"aws:owner": "me"} }, "InvalidParameterException"},
		"51 tags":  {func(in *eks.CreateClusterInput) { in.Tags = manyTags(51) }, "InvalidParameterException"},
		"auto mode": {func(in *eks.CreateClusterInput) {
			in.ComputeConfig = &types.ComputeConfigRequest{Enabled: aws.Bool(true)}
		}, "InvalidParameterException"},
		"bad auth mode": {func(in *eks.CreateClusterInput) {
			in.AccessConfig = &types.CreateAccessConfigRequest{AuthenticationMode: "LDAP"}
		}, "InvalidParameterException"},
		"bad support": {func(in *eks.CreateClusterInput) {
			in.UpgradePolicy = &types.UpgradePolicyRequest{SupportType: "FOREVER"}
		}, "InvalidParameterException"},
		"two encryption": {func(in *eks.CreateClusterInput) { in.EncryptionConfig = []types.EncryptionConfig{secrets(), secrets()} }, "InvalidParameterException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := clusterInput("refused", n)
			tc.change(in)
			if _, err := c.CreateCluster(context.Background(), in); errorCode(err) != tc.code {
				t.Errorf("CreateCluster gave %v; want %s", err, tc.code)
			}
		})
	}
	if _, err := c.DescribeCluster(context.Background(), &eks.DescribeClusterInput{Name: aws.String("refused")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a refused cluster exists: %v", err)
	}
}

// kmsKey is a KMS key ARN of the tests' region.
const kmsKey = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"

// secrets is an encryption configuration of the cluster's secrets with kmsKey.
func secrets() types.EncryptionConfig {
	return types.EncryptionConfig{Resources: []string{"secrets"}, Provider: &types.Provider{KeyArn: aws.String(kmsKey)}}
}

// manyTags returns n distinct tags.
func manyTags(n int) map[string]string {
	out := map[string]string{}
	for i := range n {
		out["k"+strings.Repeat("x", i)] = "v"
	}
	return out
}

// TestEKSTransitionOption checks that Options.Transitions["EKS"] sets the lifecycle step: zero
// makes a cluster ACTIVE at once.
func TestEKSTransitionOption(t *testing.T) {
	e, url := start(t, emulator.Options{Transitions: map[string]time.Duration{"EKS": 0}})
	e.Clock.Freeze()
	cfg := sdkConfig(t, url, "AKID", 1)
	network := ec2.NewFromConfig(cfg)
	vpc := createVpc(t, network, "10.0.0.0/16")
	subnets := []string{zoneSubnet(t, network, vpc, "10.0.1.0/24", "us-east-1a"), zoneSubnet(t, network, vpc, "10.0.2.0/24", "us-east-1c")}
	c := eks.NewFromConfig(cfg)
	out, err := c.CreateCluster(context.Background(), &eks.CreateClusterInput{Name: aws.String("instant"), RoleArn: aws.String("arn:aws:iam::123456789012:role/eks"),
		ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: subnets}})
	if err != nil || out.Cluster.Status != types.ClusterStatusActive || out.Cluster.Endpoint == nil {
		t.Errorf("with no transition CreateCluster = %+v, %v; want ACTIVE with an endpoint", out, err)
	}
}
