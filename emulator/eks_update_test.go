package emulator_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// updateParams returns an update's parameters by type.
func updateParams(u *types.Update) map[types.UpdateParamType]string {
	out := map[types.UpdateParamType]string{}
	for _, p := range u.Params {
		out[p.Type] = aws.ToString(p.Value)
	}
	return out
}

// TestEKSClusterConfigUpdates changes the logging and the endpoint access of a cluster, one
// update at a time as EKS requires, and checks the updates' lifecycle and EKS's refusals.
func TestEKSClusterConfigUpdates(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	activeCluster(t, e, c, clusterInput("production", n))
	name := aws.String("production")

	all := []types.LogType{types.LogTypeApi, types.LogTypeAudit, types.LogTypeAuthenticator, types.LogTypeControllerManager, types.LogTypeScheduler}
	logging := &types.Logging{ClusterLogging: []types.LogSetup{{Enabled: aws.Bool(true), Types: all}}}
	started, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, Logging: logging, ClientRequestToken: aws.String("logs-1")})
	if err != nil {
		t.Fatal(err)
	}
	u := started.Update
	if u.Type != types.UpdateTypeLoggingUpdate || u.Status != types.UpdateStatusInProgress || aws.ToString(u.Id) == "" ||
		!strings.Contains(updateParams(u)[types.UpdateParamTypeClusterLogging], `"controllerManager"`) {
		t.Errorf("logging update = %+v", u)
	}
	if got := describeCluster(t, c, "production"); got.Status != types.ClusterStatusUpdating || len(got.Logging.ClusterLogging[0].Types) != 2 {
		t.Errorf("during the update the cluster is %s with logging %+v; want UPDATING with the old logging", got.Status, got.Logging.ClusterLogging)
	}
	again, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, Logging: logging, ClientRequestToken: aws.String("logs-1")})
	if err != nil || aws.ToString(again.Update.Id) != aws.ToString(u.Id) {
		t.Errorf("repeating the update with its token = %v, %v; want the same update", again, err)
	}
	endpoint := &types.VpcConfigRequest{EndpointPublicAccess: aws.Bool(false)}
	if _, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, ResourcesVpcConfig: endpoint}); errorCode(err) != "ResourceInUseException" {
		t.Errorf("a second update during the first gave %v; want ResourceInUseException", err)
	}
	e.Clock.Advance(eksTransition)
	done, err := c.DescribeUpdate(ctx, &eks.DescribeUpdateInput{Name: name, UpdateId: u.Id})
	if err != nil || done.Update.Status != types.UpdateStatusSuccessful || done.Update.Errors == nil {
		t.Errorf("DescribeUpdate after the transition = %+v, %v; want Successful with no errors", done, err)
	}
	got := describeCluster(t, c, "production")
	if got.Status != types.ClusterStatusActive || len(got.Logging.ClusterLogging) != 1 || len(got.Logging.ClusterLogging[0].Types) != 5 {
		t.Errorf("after the update the cluster is %s with logging %+v", got.Status, got.Logging.ClusterLogging)
	}
	if _, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, Logging: logging}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("a logging update that changes nothing gave %v; want InvalidParameterException (No changes needed)", err)
	}
	if _, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, Logging: &types.Logging{ClusterLogging: []types.LogSetup{{Enabled: aws.Bool(false), Types: []types.LogType{types.LogTypeApi}}}},
		ResourcesVpcConfig: endpoint}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("logging and endpoint access in one request gave %v; want InvalidParameterException (Only one type of update)", err)
	}
	if _, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, ResourcesVpcConfig: &types.VpcConfigRequest{EndpointPrivateAccess: aws.Bool(true)}}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("an endpoint update that changes nothing gave %v", err)
	}
	if _, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("an update of nothing gave %v", err)
	}

	access, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, ResourcesVpcConfig: endpoint})
	if err != nil || access.Update.Type != types.UpdateTypeEndpointAccessUpdate || updateParams(access.Update)[types.UpdateParamTypeEndpointPublicAccess] != "false" {
		t.Fatalf("endpoint access update = %+v, %v", access, err)
	}
	e.Clock.Advance(eksTransition)
	if v := describeCluster(t, c, "production").ResourcesVpcConfig; v.EndpointPublicAccess || !v.EndpointPrivateAccess {
		t.Errorf("after the endpoint update: public %t, private %t", v.EndpointPublicAccess, v.EndpointPrivateAccess)
	}
	vpc, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: []string{n.subnets[1], n.sameZone}}})
	if err != nil || vpc.Update.Type != types.UpdateTypeVpcConfigUpdate {
		t.Fatalf("subnet update = %+v, %v", vpc, err)
	}
	e.Clock.Advance(eksTransition)
	if v := describeCluster(t, c, "production").ResourcesVpcConfig; !slices.Equal(v.SubnetIds, []string{n.subnets[1], n.sameZone}) {
		t.Errorf("after the subnet update the subnets are %v", v.SubnetIds)
	}
	if _, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: []string{n.subnets[0], n.otherSubnet}}}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("subnets of another VPC gave %v", err)
	}
	mode, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, AccessConfig: &types.UpdateAccessConfigRequest{AuthenticationMode: types.AuthenticationModeApi}})
	if err != nil || mode.Update.Type != types.UpdateTypeAccessConfigUpdate {
		t.Fatalf("access config update = %+v, %v", mode, err)
	}
	e.Clock.Advance(eksTransition)
	if _, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, AccessConfig: &types.UpdateAccessConfigRequest{AuthenticationMode: types.AuthenticationModeConfigMap}}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("going back to CONFIG_MAP gave %v; want InvalidParameterException", err)
	}
	policy, err := c.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: name, UpgradePolicy: &types.UpgradePolicyRequest{SupportType: types.SupportTypeStandard}})
	if err != nil || policy.Update.Type != types.UpdateTypeUpgradePolicyUpdate {
		t.Fatalf("upgrade policy update = %+v, %v", policy, err)
	}
	e.Clock.Advance(eksTransition)
	got = describeCluster(t, c, "production")
	if got.AccessConfig.AuthenticationMode != types.AuthenticationModeApi || got.UpgradePolicy.SupportType != types.SupportTypeStandard {
		t.Errorf("access %+v, upgrade policy %+v", got.AccessConfig, got.UpgradePolicy)
	}

	list, err := c.ListUpdates(ctx, &eks.ListUpdatesInput{Name: name})
	if err != nil || len(list.UpdateIds) != 5 || list.UpdateIds[0] != aws.ToString(u.Id) {
		t.Errorf("ListUpdates = %+v, %v; want the five updates, oldest first", list, err)
	}
	if _, err := c.DescribeUpdate(ctx, &eks.DescribeUpdateInput{Name: name, UpdateId: aws.String("00000000-0000-4000-8000-000000000000")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("describing an unknown update gave %v", err)
	}
}

// TestEKSClusterVersionAndEncryption upgrades a cluster one minor version, refuses skipping
// one, and enables secrets encryption once.
func TestEKSClusterVersionAndEncryption(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	in := clusterInput("production", n)
	if _, err := c.CreateCluster(ctx, in); err != nil {
		t.Fatal(err)
	}
	name := aws.String("production")
	if _, err := c.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: name, Version: aws.String("1.32")}); errorCode(err) != "InvalidRequestException" {
		t.Errorf("upgrading a CREATING cluster gave %v; want InvalidRequestException", err)
	}
	e.Clock.Advance(eksTransition)
	for _, v := range []string{"1.33", "1.31", "1.30", "1.99"} {
		if _, err := c.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: name, Version: aws.String(v)}); errorCode(err) != "InvalidParameterException" {
			t.Errorf("updating 1.31 to %s gave %v; want InvalidParameterException", v, err)
		}
	}
	up, err := c.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: name, Version: aws.String("1.32")})
	if err != nil || up.Update.Type != types.UpdateTypeVersionUpdate || updateParams(up.Update)[types.UpdateParamTypeVersion] != "1.32" {
		t.Fatalf("UpdateClusterVersion = %+v, %v", up, err)
	}
	if v := aws.ToString(describeCluster(t, c, "production").Version); v != "1.31" {
		t.Errorf("during the upgrade the version is %s; want 1.31 until it ends", v)
	}
	if _, err := c.AssociateEncryptionConfig(ctx, &eks.AssociateEncryptionConfigInput{ClusterName: name, EncryptionConfig: []types.EncryptionConfig{secrets()}}); errorCode(err) != "ResourceInUseException" {
		t.Errorf("encrypting during the upgrade gave %v; want ResourceInUseException", err)
	}
	e.Clock.Advance(eksTransition)
	got := describeCluster(t, c, "production")
	if aws.ToString(got.Version) != "1.32" || aws.ToString(got.PlatformVersion) != updateParams(up.Update)[types.UpdateParamTypePlatformVersion] {
		t.Errorf("after the upgrade: version %s, platform %s", aws.ToString(got.Version), aws.ToString(got.PlatformVersion))
	}

	enc, err := c.AssociateEncryptionConfig(ctx, &eks.AssociateEncryptionConfigInput{ClusterName: name, EncryptionConfig: []types.EncryptionConfig{secrets()}})
	if err != nil || enc.Update.Type != types.UpdateTypeAssociateEncryptionConfig || !strings.Contains(updateParams(enc.Update)[types.UpdateParamTypeEncryptionConfig], kmsKey) {
		t.Fatalf("AssociateEncryptionConfig = %+v, %v", enc, err)
	}
	e.Clock.Advance(eksTransition)
	got = describeCluster(t, c, "production")
	if len(got.EncryptionConfig) != 1 || aws.ToString(got.EncryptionConfig[0].Provider.KeyArn) != kmsKey || got.EncryptionConfig[0].Resources[0] != "secrets" {
		t.Errorf("encryption = %+v", got.EncryptionConfig)
	}
	if _, err := c.AssociateEncryptionConfig(ctx, &eks.AssociateEncryptionConfigInput{ClusterName: name, EncryptionConfig: []types.EncryptionConfig{secrets()}}); errorCode(err) != "InvalidRequestException" {
		t.Errorf("encrypting twice gave %v; want InvalidRequestException", err)
	}
	if _, err := c.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: aws.String("missing"), Version: aws.String("1.32")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("upgrading a missing cluster gave %v", err)
	}
}
