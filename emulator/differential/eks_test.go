package differential

import (
	"context"
	"encoding/base64"
	"encoding/pem"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// clusters is one side's EKS and EC2 clients, the network its steps put clusters in and the
// ARNs they created. settle lets the side's lifecycles finish: the emulator's clock moves past
// its transitions, while moto creates and deletes at once.
type clusters struct {
	eks             *eks.Client
	ec2             *ec2.Client
	settle          func()
	subnets         []string
	sameZone        string
	clusterARN      *string
	nodegroupARN    *string
	clusterUpdateID *string
}

// diffCluster is the CreateCluster request of the cluster the steps follow.
func diffCluster(c *clusters, name, token string) *eks.CreateClusterInput {
	return &eks.CreateClusterInput{Name: aws.String(name), Version: aws.String("1.31"), RoleArn: aws.String("arn:aws:iam::123456789012:role/eks-cluster"),
		ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: c.subnets, EndpointPublicAccess: aws.Bool(true), EndpointPrivateAccess: aws.Bool(false)},
		Logging:            &types.Logging{ClusterLogging: []types.LogSetup{{Enabled: aws.Bool(true), Types: []types.LogType{types.LogTypeApi, types.LogTypeAudit}}}},
		Tags:               map[string]string{"team": "platform"}, ClientRequestToken: aws.String(token)}
}

// diffNodegroup is the CreateNodegroup request of the node group the steps follow.
func diffNodegroup(c *clusters, cluster, name string) *eks.CreateNodegroupInput {
	return &eks.CreateNodegroupInput{ClusterName: aws.String(cluster), NodegroupName: aws.String(name), Subnets: c.subnets,
		NodeRole:      aws.String("arn:aws:iam::123456789012:role/eks-node"),
		ScalingConfig: &types.NodegroupScalingConfig{MinSize: aws.Int32(1), MaxSize: aws.Int32(3), DesiredSize: aws.Int32(2)},
		InstanceTypes: []string{"m6i.large"}, AmiType: types.AMITypesAl2023X8664Standard, CapacityType: types.CapacityTypesOnDemand,
		DiskSize: aws.Int32(20), Labels: map[string]string{"role": "general"}, Tags: map[string]string{"team": "platform"}}
}

var (
	awsEndpoint = regexp.MustCompile(`^https://[0-9A-F]{32}\.[a-z]{2}[0-9]\.us-east-1\.eks\.amazonaws\.com$`)
	accountPart = regexp.MustCompile(`:\d{12}:`)
)

// clusterFields are what the steps compare of a cluster; the account in ARNs is masked, as
// the two sides run different default accounts.
func clusterFields(cl *types.Cluster) map[string]string {
	var enabled []string
	for _, s := range cl.Logging.ClusterLogging {
		if aws.ToBool(s.Enabled) {
			for _, t := range s.Types {
				enabled = append(enabled, string(t))
			}
		}
	}
	f := map[string]string{"name": aws.ToString(cl.Name), "arn": accountPart.ReplaceAllString(aws.ToString(cl.Arn), ":<account>:"),
		"version": aws.ToString(cl.Version), "role": aws.ToString(cl.RoleArn), "logging": strings.Join(enabled, ","),
		"subnets": strconv.Itoa(len(cl.ResourcesVpcConfig.SubnetIds)), "public": strconv.FormatBool(cl.ResourcesVpcConfig.EndpointPublicAccess),
		"tag:team": cl.Tags["team"]}
	return f
}

// firstSubnet returns the first subnet CreateNetwork made, or "" when it made none (the step
// then fails on both sides for want of a subnet, instead of stopping the run).
func (c *clusters) firstSubnet() string {
	if len(c.subnets) == 0 {
		return ""
	}
	return c.subnets[0]
}

// activeFields are what the steps compare of an ACTIVE cluster: its status, the form of its
// endpoint, certificate authority and OIDC issuer, and the VPC taken from its subnets.
func activeFields(cl *types.Cluster) map[string]string {
	f := clusterFields(cl)
	f["status"] = string(cl.Status)
	f["endpointForm"] = strconv.FormatBool(awsEndpoint.MatchString(aws.ToString(cl.Endpoint)))
	f["issuer"] = strconv.FormatBool(strings.HasPrefix(aws.ToString(cl.Identity.Oidc.Issuer), "https://oidc.eks.us-east-1.amazonaws.com/id/"))
	pemCA := false
	if raw, err := base64.StdEncoding.DecodeString(aws.ToString(cl.CertificateAuthority.Data)); err == nil {
		block, _ := pem.Decode(raw)
		pemCA = block != nil && block.Type == "CERTIFICATE"
	}
	f["caPEM"] = strconv.FormatBool(pemCA)
	f["vpcFromSubnets"] = strconv.FormatBool(aws.ToString(cl.ResourcesVpcConfig.VpcId) != "" && aws.ToString(cl.ResourcesVpcConfig.ClusterSecurityGroupId) != "")
	return f
}

// nodegroupFields are what the steps compare of a node group.
func nodegroupFields(g *types.Nodegroup) map[string]string {
	s := g.ScalingConfig
	return map[string]string{"name": aws.ToString(g.NodegroupName), "cluster": aws.ToString(g.ClusterName),
		"arn":           accountPart.ReplaceAllString(aws.ToString(g.NodegroupArn), ":<account>:")[:len("arn:aws:eks:us-east-1:<account>:nodegroup/diff-cluster/diff-general/")],
		"scaling":       strconv.Itoa(int(aws.ToInt32(s.MinSize))) + "/" + strconv.Itoa(int(aws.ToInt32(s.DesiredSize))) + "/" + strconv.Itoa(int(aws.ToInt32(s.MaxSize))),
		"instanceTypes": strings.Join(g.InstanceTypes, ","), "amiType": string(g.AmiType), "capacityType": string(g.CapacityType),
		"labels": strconv.Itoa(len(g.Labels)) + ":" + g.Labels["role"], "version": aws.ToString(g.Version), "tag:team": g.Tags["team"]}
}

// updateFields are what the steps compare of an update; a peer that answers none has none.
func updateFields(u *types.Update) map[string]string {
	if u == nil {
		return map[string]string{"update": "none"}
	}
	return map[string]string{"type": string(u.Type), "id": strconv.FormatBool(aws.ToString(u.Id) != "")}
}

// networkStep creates the VPC the steps put clusters in, with subnets in two zones and a third
// in the first zone again.
func networkStep(ctx context.Context) step[*clusters] {
	return step[*clusters]{"CreateNetwork", func(c *clusters) outcome {
		vpc, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
		if err != nil {
			return observe(err, nil)
		}
		for i, zone := range []string{"us-east-1a", "us-east-1b", "us-east-1a"} {
			s, err := c.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String("10.0." + strconv.Itoa(i+1) + ".0/24"),
				AvailabilityZone: aws.String(zone)})
			if err != nil {
				return observe(err, nil)
			}
			if i < 2 {
				c.subnets = append(c.subnets, aws.ToString(s.Subnet.SubnetId))
			} else {
				c.sameZone = aws.ToString(s.Subnet.SubnetId)
			}
		}
		return observe(nil, nil)
	}}
}

// eksSides starts moto, or skips the test without it, and an emulator, and returns the clients
// of each side: the emulator's clock moves a minute at each settle, moto has nothing to settle.
func eksSides(t *testing.T) (emu, moto *clusters) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	side := func(url string, settle func()) *clusters {
		cfg := sdkConfig(t, url)
		return &clusters{eks: eks.NewFromConfig(cfg), ec2: ec2.NewFromConfig(cfg), settle: settle}
	}
	return side(srv.URL, func() { e.Clock.Advance(time.Minute) }), side(peerURL, func() {})
}

// notImplemented is the known difference of an operation moto's EKS lacks (its EKS responses
// implement clusters, node groups, Fargate profiles and cluster tags only).
const notImplemented = "moto does not implement this operation; the Amazon EKS API Reference documents it"

// eksSteps is the sequence both sides run: a cluster created with a client request token and
// followed to ACTIVE, updated and upgraded; a managed node group created, scaled and
// upgraded; add-ons; tags on both; and the errors AWS documents on the way.
func eksSteps() []step[*clusters] {
	ctx := context.Background()
	name := aws.String("diff-cluster")
	ngName := aws.String("diff-general")
	create := func(change func(c *clusters, in *eks.CreateClusterInput)) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			in := diffCluster(c, "diff-refused", "refused")
			change(c, in)
			_, err := c.eks.CreateCluster(ctx, in)
			return observe(err, nil)
		}
	}
	describe := func(c *clusters) outcome {
		c.settle()
		out, err := c.eks.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: name})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, activeFields(out.Cluster))
	}
	describeNodegroup := func(c *clusters) outcome {
		c.settle()
		out, err := c.eks.DescribeNodegroup(ctx, &eks.DescribeNodegroupInput{ClusterName: name, NodegroupName: ngName})
		if err != nil {
			return observe(err, nil)
		}
		f := nodegroupFields(out.Nodegroup)
		f["status"] = string(out.Nodegroup.Status)
		return observe(nil, f)
	}
	configUpdate := func(in *eks.UpdateClusterConfigInput) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			in.Name = name
			out, err := c.eks.UpdateClusterConfig(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			if out.Update != nil {
				c.clusterUpdateID = out.Update.Id
			}
			return observe(nil, updateFields(out.Update))
		}
	}
	scale := func(desired int32) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			out, err := c.eks.UpdateNodegroupConfig(ctx, &eks.UpdateNodegroupConfigInput{ClusterName: name, NodegroupName: ngName,
				ScalingConfig: &types.NodegroupScalingConfig{DesiredSize: aws.Int32(desired)},
				Labels:        &types.UpdateLabelsPayload{AddOrUpdateLabels: map[string]string{"tier": "web"}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, updateFields(out.Update))
		}
	}
	tag := func(arn func(c *clusters) *string, tags map[string]string) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			_, err := c.eks.TagResource(ctx, &eks.TagResourceInput{ResourceArn: arn(c), Tags: tags})
			return observe(err, nil)
		}
	}
	listTags := func(arn func(c *clusters) *string) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			out, err := c.eks.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: arn(c)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"tags": strconv.Itoa(len(out.Tags)), "env": out.Tags["env"]})
		}
	}
	clusterARN := func(c *clusters) *string { return c.clusterARN }
	nodegroupARN := func(c *clusters) *string { return c.nodegroupARN }
	fiftyOne := map[string]string{}
	for i := range 51 {
		fiftyOne["key"+strconv.Itoa(i)] = "v"
	}
	return []step[*clusters]{
		networkStep(ctx),
		{"CreateCluster", func(c *clusters) outcome {
			out, err := c.eks.CreateCluster(ctx, diffCluster(c, "diff-cluster", "diff-token-1"))
			if err != nil {
				return observe(err, nil)
			}
			c.clusterARN = out.Cluster.Arn
			return observe(nil, clusterFields(out.Cluster)) // AWS answers CREATING; the status is compared once ACTIVE.
		}},
		{"RepeatCreateSameToken", func(c *clusters) outcome {
			out, err := c.eks.CreateCluster(ctx, diffCluster(c, "diff-cluster", "diff-token-1"))
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"sameCluster": strconv.FormatBool(aws.ToString(out.Cluster.Arn) == aws.ToString(c.clusterARN))})
		}},
		{"CreateSameNameOtherToken", func(c *clusters) outcome {
			_, err := c.eks.CreateCluster(ctx, diffCluster(c, "diff-cluster", "diff-token-2"))
			return observe(err, nil)
		}},
		{"DescribeActiveCluster", describe},
		{"DescribeMissingCluster", func(c *clusters) outcome {
			_, err := c.eks.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String("diff-missing")})
			return observe(err, nil)
		}},
		{"CreateSecondCluster", func(c *clusters) outcome {
			_, err := c.eks.CreateCluster(ctx, diffCluster(c, "diff-second", "diff-token-3"))
			return observe(err, nil)
		}},
		{"ListClustersFirstPage", func(c *clusters) outcome {
			out, err := c.eks.ListClusters(ctx, &eks.ListClustersInput{MaxResults: aws.Int32(1)})
			if err != nil {
				return observe(err, nil)
			}
			next, err := c.eks.ListClusters(ctx, &eks.ListClustersInput{MaxResults: aws.Int32(1), NextToken: out.NextToken})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"first": strings.Join(out.Clusters, ","), "second": strings.Join(next.Clusters, ","),
				"more": strconv.FormatBool(next.NextToken != nil)})
		}},
		{"CreateBadRole", create(func(_ *clusters, in *eks.CreateClusterInput) { in.RoleArn = aws.String("eks-cluster") })},
		{"CreateBadName", create(func(_ *clusters, in *eks.CreateClusterInput) { in.Name = aws.String("diff.bad") })},
		{"CreateUnsupportedVersion", create(func(_ *clusters, in *eks.CreateClusterInput) {
			in.Name, in.Version = aws.String("diff-old"), aws.String("1.10")
		})},
		{"CreateOneZone", create(func(c *clusters, in *eks.CreateClusterInput) {
			in.Name, in.ResourcesVpcConfig.SubnetIds = aws.String("diff-onezone"), []string{c.firstSubnet(), c.sameZone}
		})},
		{"CreateUnknownSubnet", create(func(c *clusters, in *eks.CreateClusterInput) {
			in.Name, in.ResourcesVpcConfig.SubnetIds = aws.String("diff-nosubnet"), []string{c.firstSubnet(), "subnet-0123456789abcdef0"}
		})},
		{"UpdateLogging", configUpdate(&eks.UpdateClusterConfigInput{Logging: &types.Logging{ClusterLogging: []types.LogSetup{
			{Enabled: aws.Bool(true), Types: []types.LogType{types.LogTypeScheduler}}}}})},
		{"UpdateDuringUpdate", configUpdate(&eks.UpdateClusterConfigInput{ResourcesVpcConfig: &types.VpcConfigRequest{EndpointPrivateAccess: aws.Bool(true)}})},
		{"DescribeUpdate", func(c *clusters) outcome {
			c.settle()
			id := c.clusterUpdateID
			if id == nil { // a side that answered no update is asked for one that does not exist
				id = aws.String("00000000-0000-4000-8000-000000000000")
			}
			out, err := c.eks.DescribeUpdate(ctx, &eks.DescribeUpdateInput{Name: name, UpdateId: id})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.Update.Status)})
		}},
		{"ListUpdates", func(c *clusters) outcome {
			out, err := c.eks.ListUpdates(ctx, &eks.ListUpdatesInput{Name: name})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"updates": strconv.Itoa(len(out.UpdateIds))})
		}},
		{"DescribeUpdatedLogging", describe},
		{"UpdateLoggingUnchanged", configUpdate(&eks.UpdateClusterConfigInput{Logging: &types.Logging{ClusterLogging: []types.LogSetup{
			{Enabled: aws.Bool(true), Types: []types.LogType{types.LogTypeScheduler}}}}})},
		{"UpdateTwoTypes", configUpdate(&eks.UpdateClusterConfigInput{
			Logging:            &types.Logging{ClusterLogging: []types.LogSetup{{Enabled: aws.Bool(false), Types: []types.LogType{types.LogTypeApi}}}},
			ResourcesVpcConfig: &types.VpcConfigRequest{EndpointPrivateAccess: aws.Bool(true)}})},
		{"UpgradeSkippingAMinor", func(c *clusters) outcome {
			_, err := c.eks.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: name, Version: aws.String("1.33")})
			return observe(err, nil)
		}},
		{"UpgradeOneMinor", func(c *clusters) outcome {
			out, err := c.eks.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: name, Version: aws.String("1.32")})
			if err != nil {
				return observe(err, nil)
			}
			c.settle()
			return observe(nil, updateFields(out.Update))
		}},
		{"AssociateEncryption", func(c *clusters) outcome {
			out, err := c.eks.AssociateEncryptionConfig(ctx, &eks.AssociateEncryptionConfigInput{ClusterName: name, EncryptionConfig: []types.EncryptionConfig{
				{Resources: []string{"secrets"}, Provider: &types.Provider{KeyArn: aws.String("arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab")}}}})
			if err != nil {
				return observe(err, nil)
			}
			c.settle()
			return observe(nil, updateFields(out.Update))
		}},
		{"CreateNodegroup", func(c *clusters) outcome {
			out, err := c.eks.CreateNodegroup(ctx, diffNodegroup(c, "diff-cluster", "diff-general"))
			if err != nil {
				return observe(err, nil)
			}
			c.nodegroupARN = out.Nodegroup.NodegroupArn
			return observe(nil, nodegroupFields(out.Nodegroup))
		}},
		{"CreateNodegroupAgain", func(c *clusters) outcome {
			_, err := c.eks.CreateNodegroup(ctx, diffNodegroup(c, "diff-cluster", "diff-general"))
			return observe(err, nil)
		}},
		{"CreateNodegroupUnknownCluster", func(c *clusters) outcome {
			_, err := c.eks.CreateNodegroup(ctx, diffNodegroup(c, "diff-missing", "diff-general"))
			return observe(err, nil)
		}},
		{"ListNodegroups", func(c *clusters) outcome {
			out, err := c.eks.ListNodegroups(ctx, &eks.ListNodegroupsInput{ClusterName: name})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"nodegroups": strings.Join(out.Nodegroups, ",")})
		}},
		{"CreateNodegroupMinAboveDesired", func(c *clusters) outcome {
			in := diffNodegroup(c, "diff-cluster", "diff-minabove")
			in.ScalingConfig.MinSize = aws.Int32(3)
			_, err := c.eks.CreateNodegroup(ctx, in)
			return observe(err, nil)
		}},
		{"DeleteRefusedNodegroup", func(c *clusters) outcome {
			_, err := c.eks.DeleteNodegroup(ctx, &eks.DeleteNodegroupInput{ClusterName: name, NodegroupName: aws.String("diff-minabove")})
			return observe(err, nil)
		}},
		{"DescribeActiveNodegroup", describeNodegroup},
		{"ScaleNodegroup", scale(3)},
		{"ScaleDuringUpdate", scale(2)},
		{"DescribeScaledNodegroup", describeNodegroup},
		{"UpgradeNodegroup", func(c *clusters) outcome {
			out, err := c.eks.UpdateNodegroupVersion(ctx, &eks.UpdateNodegroupVersionInput{ClusterName: name, NodegroupName: ngName, Version: aws.String("1.32")})
			if err != nil {
				return observe(err, nil)
			}
			c.settle()
			return observe(nil, updateFields(out.Update))
		}},
		{"DeleteClusterWithNodegroup", func(c *clusters) outcome {
			_, err := c.eks.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: name})
			return observe(err, nil)
		}},
		{"DescribeAddonVersions", func(c *clusters) outcome {
			out, err := c.eks.DescribeAddonVersions(ctx, &eks.DescribeAddonVersionsInput{AddonName: aws.String("coredns"), KubernetesVersion: aws.String("1.32")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"addons": strconv.Itoa(len(out.Addons))})
		}},
		{"CreateAddon", func(c *clusters) outcome {
			out, err := c.eks.CreateAddon(ctx, &eks.CreateAddonInput{ClusterName: name, AddonName: aws.String("coredns")})
			if err != nil {
				return observe(err, nil)
			}
			c.settle()
			return observe(nil, map[string]string{"name": aws.ToString(out.Addon.AddonName)})
		}},
		{"DescribeAddon", func(c *clusters) outcome {
			out, err := c.eks.DescribeAddon(ctx, &eks.DescribeAddonInput{ClusterName: name, AddonName: aws.String("coredns")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.Addon.Status)})
		}},
		{"ListAddons", func(c *clusters) outcome {
			out, err := c.eks.ListAddons(ctx, &eks.ListAddonsInput{ClusterName: name})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"addons": strings.Join(out.Addons, ",")})
		}},
		{"UpdateAddon", func(c *clusters) outcome {
			out, err := c.eks.UpdateAddon(ctx, &eks.UpdateAddonInput{ClusterName: name, AddonName: aws.String("coredns"), ConfigurationValues: aws.String(`{"replicaCount":3}`)})
			if err != nil {
				return observe(err, nil)
			}
			c.settle()
			return observe(nil, updateFields(out.Update))
		}},
		{"DeleteAddon", func(c *clusters) outcome {
			_, err := c.eks.DeleteAddon(ctx, &eks.DeleteAddonInput{ClusterName: name, AddonName: aws.String("coredns")})
			return observe(err, nil)
		}},
		{"TagCluster", tag(clusterARN, map[string]string{"env": "prod"})},
		{"ListClusterTags", listTags(clusterARN)},
		{"UntagCluster", func(c *clusters) outcome {
			_, err := c.eks.UntagResource(ctx, &eks.UntagResourceInput{ResourceArn: c.clusterARN, TagKeys: []string{"team"}})
			return observe(err, nil)
		}},
		{"ListClusterTagsAfterUntag", listTags(clusterARN)},
		{"TagNodegroup", tag(nodegroupARN, map[string]string{"env": "prod"})},
		{"ListNodegroupTags", listTags(nodegroupARN)},
		{"TagReservedPrefix", tag(clusterARN, map[string]string{"aws:owner": "me"})},
		{"TagFiftyOne", tag(clusterARN, fiftyOne)},
		{"ListTagsOfMissingCluster", listTags(func(c *clusters) *string {
			return aws.String(strings.Replace(aws.ToString(c.clusterARN), "cluster/diff-cluster", "cluster/diff-missing", 1))
		})},
		{"DeleteNodegroup", func(c *clusters) outcome {
			_, err := c.eks.DeleteNodegroup(ctx, &eks.DeleteNodegroupInput{ClusterName: name, NodegroupName: ngName})
			return observe(err, nil)
		}},
		{"DescribeDeletedNodegroup", describeNodegroup},
		{"DeleteCluster", func(c *clusters) outcome {
			out, err := c.eks.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: name})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.Cluster.Status)})
		}},
		{"DescribeDeletedCluster", func(c *clusters) outcome {
			c.settle()
			_, err := c.eks.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: name})
			return observe(err, nil)
		}},
	}
}

// TestEKSAgainstMoto compares EKS clusters, node groups, add-ons and tags with moto's EKS.
func TestEKSAgainstMoto(t *testing.T) {
	emu, moto := eksSides(t)
	// moto answers at once and keeps no lifecycle: a cluster is ACTIVE on creation, an update
	// is Successful, a deletion is done. AWS moves through CREATING, UPDATING and DELETING
	// (Amazon EKS API Reference, Cluster.status) and refuses a second update meanwhile.
	const noLifecycle = "moto applies an update at once and refuses none during another; AWS runs one update at a time and answers ResourceInUseException"
	// moto checks only the form of the role ARN and that names are free; AWS validates the rest
	// of the request.
	const noValidation = "moto accepts it; AWS answers InvalidParameterException"
	compare(t, emu, moto, "moto "+motoVersion, eksSteps(), map[string]string{
		"RepeatCreateSameToken": "moto ignores clientRequestToken and answers ResourceInUseException; AWS answers the cluster the token created (CreateCluster: clientRequestToken ensures idempotency)",
		"DescribeActiveCluster": "moto's endpoint is a random string with a trailing slash and its certificateAuthority.data is not base64 PEM, and it leaves vpcId and clusterSecurityGroupId out; " +
			"AWS's endpoint is https://<32 hex>.<cell>.<region>.eks.amazonaws.com, its data a base64 PEM CA, and it derives the VPC from the subnets and creates a cluster security group",
		"CreateBadName":            "moto accepts any name; AWS refuses one not matching ^[0-9A-Za-z][A-Za-z0-9\\-_]* with InvalidParameterException",
		"CreateUnsupportedVersion": "moto accepts any version; AWS answers InvalidParameterException: unsupported Kubernetes version",
		"CreateOneZone":            noValidation + ": Subnets specified must be in at least two different AZs",
		"CreateUnknownSubnet":      noValidation + ": The subnet ID does not exist",
		"UpdateLogging":            "moto answers the cluster instead of an Update object; AWS answers an Update (UpdateClusterConfig response: update)",
		"UpdateDuringUpdate":       noLifecycle + "; moto also answers no Update object",
		"DescribeUpdate":           notImplemented,
		"ListUpdates":              notImplemented,
		"DescribeUpdatedLogging": "moto replaces the logging and resourcesVpcConfig wholesale with an update's (only scheduler enabled, no subnets, public access off); " +
			"AWS changes only the log types and endpoint settings an update names, and refused UpdateDuringUpdate; and as in DescribeActiveCluster",
		"UpdateLoggingUnchanged":         "moto accepts an update that changes nothing; AWS answers InvalidParameterException: No changes needed for the logging config provided",
		"UpdateTwoTypes":                 "moto applies logging and endpoint access in one request; AWS answers InvalidParameterException: Only one type of update can be allowed",
		"UpgradeSkippingAMinor":          notImplemented + "; AWS refuses a jump of two minor versions with InvalidParameterException",
		"UpgradeOneMinor":                notImplemented,
		"AssociateEncryption":            notImplemented,
		"CreateNodegroup":                "moto gives a node group Kubernetes 1.19 whatever its cluster runs; AWS defaults to the cluster's version (CreateNodegroup: version)",
		"CreateNodegroupMinAboveDesired": noValidation + ": minSize can't be greater than desiredSize",
		"DescribeActiveNodegroup":        "follows from CreateNodegroup: moto's node group runs 1.19",
		"DeleteRefusedNodegroup":         "follows from CreateNodegroupMinAboveDesired: moto created the node group AWS refuses, and deletes it here",
		"ScaleDuringUpdate":              noLifecycle,
		"DescribeScaledNodegroup":        "follows from CreateNodegroup: moto's node group runs 1.19",
		"UpgradeNodegroup":               notImplemented,
		"DescribeAddonVersions":          notImplemented,
		"CreateAddon":                    notImplemented,
		"DescribeAddon":                  notImplemented,
		"ListAddons":                     notImplemented,
		"UpdateAddon":                    notImplemented,
		"DeleteAddon":                    notImplemented,
		"TagNodegroup":                   "moto tags clusters only and answers ResourceNotFoundException for a node group; AWS tags clusters, node groups and add-ons (TagResource)",
		"ListNodegroupTags":              "moto lists the tags of clusters only; AWS lists a node group's too",
		"TagReservedPrefix":              "moto accepts the aws: prefix; AWS reserves it (Amazon EKS User Guide, tag restrictions) and answers BadRequestException",
		"TagFiftyOne":                    "moto has no tag limit; AWS allows 50 tags a resource and answers BadRequestException",
		"ListTagsOfMissingCluster":       "moto answers ResourceNotFoundException; AWS's TagResource and ListTagsForResource answer NotFoundException for a resource that does not exist",
		"DeleteCluster":                  "moto deletes at once and answers the cluster as it was (ACTIVE); AWS answers it DELETING",
	})
}
