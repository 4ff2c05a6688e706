package emulator_test

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/runner-codes/infra-operator/emulator"
)

// Principals of the access entry tests.
const (
	emulatorUser = "arn:aws:iam::000000000000:user/emulator" // the caller of every test key
	deployerRole = "arn:aws:iam::000000000000:role/teams/deployer"
	nodeRole     = "arn:aws:iam::000000000000:role/eks-node"
	clusterAdmin = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"
	viewPolicy   = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy"
)

// accessCluster returns the seed cluster's request with an access configuration.
func accessCluster(name string, n eksNetwork, mode types.AuthenticationMode, bootstrap *bool) *eks.CreateClusterInput {
	in := clusterInput(name, n)
	in.AccessConfig = &types.CreateAccessConfigRequest{AuthenticationMode: mode, BootstrapClusterCreatorAdminPermissions: bootstrap}
	return in
}

// entryARNs lists the principal ARNs of a cluster's access entries, or fails the test.
func entryARNs(t *testing.T, c *eks.Client, cluster string, policy *string) []string {
	t.Helper()
	out, err := c.ListAccessEntries(context.Background(), &eks.ListAccessEntriesInput{ClusterName: aws.String(cluster), AssociatedPolicyArn: policy})
	if err != nil {
		t.Fatalf("list access entries of %s: %v", cluster, err)
	}
	return out.AccessEntries
}

// TestEKSAccessConfig checks the authentication modes: CONFIG_MAP by default with the creator's
// admin access, which CONFIG_MAP requires; no access entries in CONFIG_MAP; the mode moving only
// forward through an AccessConfigUpdate, the creator's admin entry appearing once the update
// ends; and no entry for a creator who declined it.
func TestEKSAccessConfig(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	created, err := c.CreateCluster(ctx, clusterInput("legacy", n))
	if err != nil {
		t.Fatal(err)
	}
	if a := created.Cluster.AccessConfig; a.AuthenticationMode != types.AuthenticationModeConfigMap || !aws.ToBool(a.BootstrapClusterCreatorAdminPermissions) {
		t.Errorf("CreateCluster's access config = %+v; want CONFIG_MAP with the creator's admin permissions", a)
	}
	e.Clock.Advance(eksTransition)
	if a := describeCluster(t, c, "legacy").AccessConfig; a.AuthenticationMode != types.AuthenticationModeConfigMap || a.BootstrapClusterCreatorAdminPermissions != nil {
		t.Errorf("DescribeCluster's access config = %+v; want the mode alone, as AWS answers", a)
	}
	_, err = c.CreateCluster(ctx, accessCluster("declined", n, "", aws.Bool(false)))
	wantCode(t, "CONFIG_MAP without the creator's admin permissions", err, "InvalidParameterException")
	if msg := errorMessage(err); msg != "bootstrapClusterCreatorAdminPermissions must be true if cluster authentication mode is set to CONFIG_MAP" {
		t.Errorf("message %q", msg)
	}
	_, err = c.CreateAccessEntry(ctx, &eks.CreateAccessEntryInput{ClusterName: aws.String("legacy"), PrincipalArn: aws.String(deployerRole)})
	wantCode(t, "an access entry in CONFIG_MAP mode", err, "InvalidRequestException")
	if msg := errorMessage(err); msg != "The cluster's authentication mode must be set to one of [API, API_AND_CONFIG_MAP] to perform this operation." {
		t.Errorf("message %q", msg)
	}
	_, err = c.ListAccessEntries(ctx, &eks.ListAccessEntriesInput{ClusterName: aws.String("legacy")})
	wantCode(t, "listing access entries in CONFIG_MAP mode", err, "InvalidRequestException")

	update := func(mode types.AuthenticationMode) error {
		_, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: aws.String("legacy"), AccessConfig: &types.UpdateAccessConfigRequest{AuthenticationMode: mode}})
		return err
	}
	if err := update(types.AuthenticationModeApiAndConfigMap); err != nil {
		t.Fatal(err)
	}
	_, err = c.ListAccessEntries(ctx, &eks.ListAccessEntriesInput{ClusterName: aws.String("legacy")})
	wantCode(t, "listing access entries while the mode changes", err, "InvalidRequestException")
	e.Clock.Advance(eksTransition)
	if got := entryARNs(t, c, "legacy", aws.String(clusterAdmin)); !slices.Equal(got, []string{emulatorUser}) {
		t.Errorf("after enabling access entries, the entries with AmazonEKSClusterAdminPolicy are %v; want the creator's", got)
	}
	err = update(types.AuthenticationModeConfigMap)
	wantCode(t, "going back to CONFIG_MAP", err, "InvalidParameterException")
	if msg := errorMessage(err); msg != "Unsupported authentication mode update from API_AND_CONFIG_MAP to CONFIG_MAP." {
		t.Errorf("message %q", msg)
	}
	if err := update(types.AuthenticationModeApi); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(eksTransition)
	if got := describeCluster(t, c, "legacy").AccessConfig.AuthenticationMode; got != types.AuthenticationModeApi {
		t.Errorf("mode %s after the second update; want API", got)
	}
	wantCode(t, "going back to API_AND_CONFIG_MAP", update(types.AuthenticationModeApiAndConfigMap), "InvalidParameterException")

	activeCluster(t, e, c, accessCluster("declined", n, types.AuthenticationModeApi, aws.Bool(false)))
	if got := entryARNs(t, c, "declined", nil); len(got) != 0 {
		t.Errorf("a cluster whose creator declined admin permissions has entries %v", got)
	}
}

// TestEKSAccessCreatorRole checks that the creator's admin entry names the IAM role, path and
// all, of the temporary credentials that created the cluster, not their session.
func TestEKSAccessCreatorRole(t *testing.T) {
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	ctx := context.Background()
	cfg := sdkConfig(t, url, "AKIDBASE", 1)
	cfg.Credentials = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), "arn:aws:iam::222222222222:role/platform/deployer",
		func(o *stscreds.AssumeRoleOptions) { o.RoleSessionName = "infra-operator" }))
	net := ec2.NewFromConfig(cfg)
	vpc := createVpc(t, net, "10.0.0.0/16")
	n := eksNetwork{subnets: []string{zoneSubnet(t, net, vpc, "10.0.1.0/24", "us-east-1a"), zoneSubnet(t, net, vpc, "10.0.2.0/24", "us-east-1b")}}
	n.group = createGroup(t, net, vpc, "eks-control-plane")
	c := eks.NewFromConfig(cfg)
	activeCluster(t, e, c, accessCluster("assumed", n, types.AuthenticationModeApi, nil))
	role := "arn:aws:iam::222222222222:role/platform/deployer"
	if got := entryARNs(t, c, "assumed", nil); !slices.Equal(got, []string{role}) {
		t.Fatalf("entries %v; want the assumed role's", got)
	}
	out, err := c.DescribeAccessEntry(ctx, &eks.DescribeAccessEntryInput{ClusterName: aws.String("assumed"), PrincipalArn: aws.String(role)})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(out.AccessEntry.Username); got != "arn:aws:sts::222222222222:assumed-role/deployer/{{SessionName}}" || aws.ToString(out.AccessEntry.Type) != "STANDARD" {
		t.Errorf("the creator's entry = %+v", out.AccessEntry)
	}
}

var accessEntryARN = regexp.MustCompile(`^arn:aws:eks:us-east-1:000000000000:access-entry/team/role/000000000000/deployer/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// TestEKSAccessEntries follows access entries through their operations in API mode: AWS's
// defaults and rules by type, client request tokens, duplicates, updates, tags, listing with a
// policy filter and pages, and their going with their cluster.
func TestEKSAccessEntries(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	activeCluster(t, e, c, accessCluster("team", n, types.AuthenticationModeApi, aws.Bool(false)))
	team := aws.String("team")
	create := func(in *eks.CreateAccessEntryInput) (*types.AccessEntry, error) {
		in.ClusterName = team
		out, err := c.CreateAccessEntry(ctx, in)
		if err != nil {
			return nil, err
		}
		return out.AccessEntry, nil
	}
	entry, err := create(&eks.CreateAccessEntryInput{PrincipalArn: aws.String(deployerRole), KubernetesGroups: []string{"deployers"},
		ClientRequestToken: aws.String("deployer-1"), Tags: map[string]string{"team": "platform"}})
	if err != nil {
		t.Fatal(err)
	}
	if !accessEntryARN.MatchString(aws.ToString(entry.AccessEntryArn)) || aws.ToString(entry.Type) != "STANDARD" ||
		aws.ToString(entry.Username) != "arn:aws:sts::000000000000:assumed-role/deployer/{{SessionName}}" ||
		!slices.Equal(entry.KubernetesGroups, []string{"deployers"}) || entry.Tags["team"] != "platform" || entry.CreatedAt == nil {
		t.Errorf("entry = %+v", entry)
	}
	again, err := create(&eks.CreateAccessEntryInput{PrincipalArn: aws.String(deployerRole), ClientRequestToken: aws.String("deployer-1")})
	if err != nil || aws.ToString(again.AccessEntryArn) != aws.ToString(entry.AccessEntryArn) {
		t.Errorf("repeating the create with its token = %+v, %v; want the same entry", again, err)
	}
	_, err = create(&eks.CreateAccessEntryInput{PrincipalArn: aws.String(deployerRole), ClientRequestToken: aws.String("deployer-2")})
	wantCode(t, "a second entry for the principal", err, "ResourceInUseException")
	if msg := errorMessage(err); msg != "The specified access entry resource is already in use on this cluster." {
		t.Errorf("message %q", msg)
	}
	user, err := create(&eks.CreateAccessEntryInput{PrincipalArn: aws.String("arn:aws:iam::111122223333:user/auditor"), Username: aws.String("auditor")})
	if err != nil || aws.ToString(user.Username) != "auditor" || user.KubernetesGroups == nil {
		t.Errorf("a user of another account = %+v, %v", user, err)
	}
	node, err := create(&eks.CreateAccessEntryInput{PrincipalArn: aws.String(nodeRole), Type: aws.String("EC2_LINUX")})
	if err != nil || aws.ToString(node.Username) != "system:node:{{EC2PrivateDNSName}}" || !slices.Equal(node.KubernetesGroups, []string{"system:nodes"}) {
		t.Errorf("a node entry = %+v, %v; want EKS's node username and group", node, err)
	}
	for what, in := range map[string]*eks.CreateAccessEntryInput{
		"a node entry with groups":        {PrincipalArn: aws.String("arn:aws:iam::000000000000:role/other-node"), Type: aws.String("EC2_LINUX"), KubernetesGroups: []string{"ops"}},
		"a node entry for a user":         {PrincipalArn: aws.String("arn:aws:iam::000000000000:user/node"), Type: aws.String("FARGATE_LINUX")},
		"a node entry of another account": {PrincipalArn: aws.String("arn:aws:iam::111122223333:role/node"), Type: aws.String("EC2_WINDOWS")},
		"an unknown type":                 {PrincipalArn: aws.String("arn:aws:iam::000000000000:role/x"), Type: aws.String("SERVERLESS")},
		"an STS session":                  {PrincipalArn: aws.String("arn:aws:sts::000000000000:assumed-role/deployer/me")},
	} {
		_, err := create(in)
		wantCode(t, what, err, "InvalidParameterException")
	}
	_, err = c.CreateAccessEntry(ctx, &eks.CreateAccessEntryInput{ClusterName: aws.String("missing"), PrincipalArn: aws.String(deployerRole)})
	wantCode(t, "an entry in a missing cluster", err, "ResourceNotFoundException")

	updated, err := c.UpdateAccessEntry(ctx, &eks.UpdateAccessEntryInput{ClusterName: team, PrincipalArn: aws.String(deployerRole),
		KubernetesGroups: []string{"deployers", "viewers"}, Username: aws.String("deployer"), ClientRequestToken: aws.String("u-1")})
	if err != nil || aws.ToString(updated.AccessEntry.Username) != "deployer" || len(updated.AccessEntry.KubernetesGroups) != 2 {
		t.Errorf("update = %+v, %v", updated, err)
	}
	_, err = c.UpdateAccessEntry(ctx, &eks.UpdateAccessEntryInput{ClusterName: team, PrincipalArn: aws.String(nodeRole), KubernetesGroups: []string{"ops"}})
	wantCode(t, "groups for a node entry", err, "InvalidParameterException")

	if _, err := c.TagResource(ctx, &eks.TagResourceInput{ResourceArn: entry.AccessEntryArn, Tags: map[string]string{"env": "prod"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: entry.AccessEntryArn})
	if err != nil || len(tags.Tags) != 2 || tags.Tags["env"] != "prod" {
		t.Errorf("the entry's tags = %+v, %v", tags, err)
	}

	first, err := c.ListAccessEntries(ctx, &eks.ListAccessEntriesInput{ClusterName: team, MaxResults: aws.Int32(2)})
	if err != nil || len(first.AccessEntries) != 2 || first.NextToken == nil {
		t.Fatalf("first page = %+v, %v", first, err)
	}
	rest, err := c.ListAccessEntries(ctx, &eks.ListAccessEntriesInput{ClusterName: team, MaxResults: aws.Int32(2), NextToken: first.NextToken})
	if err != nil || !slices.Equal(append(first.AccessEntries, rest.AccessEntries...), []string{"arn:aws:iam::000000000000:role/eks-node", deployerRole, "arn:aws:iam::111122223333:user/auditor"}) || rest.NextToken != nil {
		t.Errorf("second page = %+v, %v", rest, err)
	}

	if _, err := c.DeleteAccessEntry(ctx, &eks.DeleteAccessEntryInput{ClusterName: team, PrincipalArn: aws.String(deployerRole)}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DescribeAccessEntry(ctx, &eks.DescribeAccessEntryInput{ClusterName: team, PrincipalArn: aws.String(deployerRole)})
	wantCode(t, "a deleted entry", err, "ResourceNotFoundException")
	_, err = c.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: entry.AccessEntryArn})
	wantCode(t, "the tags of a deleted entry", err, "NotFoundException")

	if _, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: team}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(eksTransition)
	activeCluster(t, e, c, accessCluster("team", n, types.AuthenticationModeApi, aws.Bool(false)))
	if got := entryARNs(t, c, "team", nil); len(got) != 0 {
		t.Errorf("a new cluster of the same name has the old one's entries %v", got)
	}
}

// TestEKSAccessPolicies checks the access policy catalogue and associations: cluster and
// namespace scopes, a repeated association replacing the scope, the policy filter of
// ListAccessEntries, and AWS's refusals.
func TestEKSAccessPolicies(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	policies, err := c.ListAccessPolicies(ctx, &eks.ListAccessPoliciesInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range policies.AccessPolicies {
		names = append(names, aws.ToString(p.Name))
		if aws.ToString(p.Arn) != "arn:aws:eks::aws:cluster-access-policy/"+aws.ToString(p.Name) {
			t.Errorf("policy %+v", p)
		}
	}
	for _, want := range []string{"AmazonEKSClusterAdminPolicy", "AmazonEKSAdminPolicy", "AmazonEKSEditPolicy", "AmazonEKSViewPolicy"} {
		if !slices.Contains(names, want) {
			t.Errorf("ListAccessPolicies lacks %s: %v", want, names)
		}
	}
	activeCluster(t, e, c, accessCluster("shared", n, types.AuthenticationModeApiAndConfigMap, nil))
	shared := aws.String("shared")
	for _, in := range []*eks.CreateAccessEntryInput{{PrincipalArn: aws.String(deployerRole)}, {PrincipalArn: aws.String(nodeRole), Type: aws.String("EC2_LINUX")}} {
		in.ClusterName = shared
		if _, err := c.CreateAccessEntry(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	associate := func(principal, policy string, scope *types.AccessScope) (*eks.AssociateAccessPolicyOutput, error) {
		return c.AssociateAccessPolicy(ctx, &eks.AssociateAccessPolicyInput{ClusterName: shared, PrincipalArn: aws.String(principal), PolicyArn: aws.String(policy), AccessScope: scope})
	}
	out, err := associate(deployerRole, viewPolicy, &types.AccessScope{Type: types.AccessScopeTypeNamespace, Namespaces: []string{"apps"}})
	if err != nil || aws.ToString(out.PrincipalArn) != deployerRole || aws.ToString(out.ClusterName) != "shared" ||
		!slices.Equal(out.AssociatedAccessPolicy.AccessScope.Namespaces, []string{"apps"}) {
		t.Fatalf("associate = %+v, %v", out, err)
	}
	if _, err := associate(deployerRole, viewPolicy, &types.AccessScope{Type: types.AccessScopeTypeCluster}); err != nil {
		t.Fatal(err)
	}
	listed, err := c.ListAssociatedAccessPolicies(ctx, &eks.ListAssociatedAccessPoliciesInput{ClusterName: shared, PrincipalArn: aws.String(deployerRole)})
	if err != nil || len(listed.AssociatedAccessPolicies) != 1 || listed.AssociatedAccessPolicies[0].AccessScope.Type != types.AccessScopeTypeCluster {
		t.Errorf("associated policies = %+v, %v; want the view policy, its scope replaced by the cluster", listed, err)
	}
	if got := entryARNs(t, c, "shared", aws.String(viewPolicy)); !slices.Equal(got, []string{deployerRole}) {
		t.Errorf("entries with the view policy: %v", got)
	}
	if got := entryARNs(t, c, "shared", aws.String(clusterAdmin)); !slices.Equal(got, []string{emulatorUser}) {
		t.Errorf("entries with the cluster admin policy: %v; want the creator's", got)
	}
	for what, tc := range map[string]struct {
		principal, policy string
		scope             *types.AccessScope
		code              string
	}{
		"an unknown policy":           {deployerRole, "arn:aws:eks::aws:cluster-access-policy/AmazonEKSRootPolicy", &types.AccessScope{Type: types.AccessScopeTypeCluster}, "ResourceNotFoundException"},
		"namespaces on cluster scope": {deployerRole, viewPolicy, &types.AccessScope{Type: types.AccessScopeTypeCluster, Namespaces: []string{"apps"}}, "InvalidParameterException"},
		"namespace scope without any": {deployerRole, viewPolicy, &types.AccessScope{Type: types.AccessScopeTypeNamespace}, "InvalidParameterException"},
		"a policy for a node entry":   {nodeRole, viewPolicy, &types.AccessScope{Type: types.AccessScopeTypeCluster}, "InvalidParameterException"},
		"a principal with no entry":   {"arn:aws:iam::000000000000:role/nobody", viewPolicy, &types.AccessScope{Type: types.AccessScopeTypeCluster}, "ResourceNotFoundException"},
	} {
		_, err := associate(tc.principal, tc.policy, tc.scope)
		wantCode(t, what, err, tc.code)
	}
	disassociate := func() error {
		_, err := c.DisassociateAccessPolicy(ctx, &eks.DisassociateAccessPolicyInput{ClusterName: shared, PrincipalArn: aws.String(deployerRole), PolicyArn: aws.String(viewPolicy)})
		return err
	}
	if err := disassociate(); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "disassociating twice", disassociate(), "ResourceNotFoundException")
	if got := entryARNs(t, c, "shared", aws.String(viewPolicy)); len(got) != 0 {
		t.Errorf("entries with the view policy after disassociation: %v", got)
	}
}
