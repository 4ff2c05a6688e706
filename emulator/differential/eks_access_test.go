package differential

import (
	"context"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// accessFields are what the steps compare of a cluster's access configuration; a side that
// answers none has "none".
func accessFields(a *types.AccessConfigResponse) map[string]string {
	if a == nil {
		return map[string]string{"access": "none"}
	}
	f := map[string]string{"mode": string(a.AuthenticationMode)}
	if a.BootstrapClusterCreatorAdminPermissions != nil {
		f["bootstrap"] = strconv.FormatBool(*a.BootstrapClusterCreatorAdminPermissions)
	}
	return f
}

// eksAccessSteps is the sequence both sides run on cluster access: access configurations on
// create, describe and update, then access entries, access policies and Pod Identity
// associations, which moto 5.2.1 lacks.
func eksAccessSteps() []step[*clusters] {
	ctx := context.Background()
	legacy, modern := aws.String("diff-legacy"), aws.String("diff-modern")
	role := aws.String("arn:aws:iam::123456789012:role/diff-deployer")
	createCluster := func(name string, access *types.CreateAccessConfigRequest) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			in := diffCluster(c, name, name+"-token")
			in.AccessConfig = access
			out, err := c.eks.CreateCluster(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, accessFields(out.Cluster.AccessConfig))
		}
	}
	describe := func(name *string) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			c.settle()
			out, err := c.eks.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: name})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, accessFields(out.Cluster.AccessConfig))
		}
	}
	updateMode := func(mode types.AuthenticationMode) func(c *clusters) outcome {
		return func(c *clusters) outcome {
			out, err := c.eks.UpdateClusterConfig(ctx, &eks.UpdateClusterConfigInput{Name: legacy, AccessConfig: &types.UpdateAccessConfigRequest{AuthenticationMode: mode}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, updateFields(out.Update))
		}
	}
	return []step[*clusters]{
		networkStep(ctx),
		{"CreateDefaultAccess", createCluster("diff-legacy", nil)},
		{"DescribeDefaultAccess", describe(legacy)},
		{"CreateAPIAccess", createCluster("diff-modern", &types.CreateAccessConfigRequest{AuthenticationMode: types.AuthenticationModeApi})},
		{"DescribeAPIAccess", describe(modern)},
		{"CreateConfigMapWithoutBootstrap", createCluster("diff-refused", &types.CreateAccessConfigRequest{
			AuthenticationMode: types.AuthenticationModeConfigMap, BootstrapClusterCreatorAdminPermissions: aws.Bool(false)})},
		{"CreateAccessEntryInConfigMap", func(c *clusters) outcome {
			_, err := c.eks.CreateAccessEntry(ctx, &eks.CreateAccessEntryInput{ClusterName: legacy, PrincipalArn: role})
			return observe(err, nil)
		}},
		{"UpdateModeForward", updateMode(types.AuthenticationModeApiAndConfigMap)},
		{"DescribeUpdatedMode", describe(legacy)},
		{"UpdateModeBack", updateMode(types.AuthenticationModeConfigMap)},
		{"CreateAccessEntry", func(c *clusters) outcome {
			out, err := c.eks.CreateAccessEntry(ctx, &eks.CreateAccessEntryInput{ClusterName: modern, PrincipalArn: role, KubernetesGroups: []string{"deployers"}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"type": aws.ToString(out.AccessEntry.Type), "principal": aws.ToString(out.AccessEntry.PrincipalArn)})
		}},
		{"CreateAccessEntryAgain", func(c *clusters) outcome {
			_, err := c.eks.CreateAccessEntry(ctx, &eks.CreateAccessEntryInput{ClusterName: modern, PrincipalArn: role})
			return observe(err, nil)
		}},
		{"AssociateAccessPolicy", func(c *clusters) outcome {
			_, err := c.eks.AssociateAccessPolicy(ctx, &eks.AssociateAccessPolicyInput{ClusterName: modern, PrincipalArn: role,
				PolicyArn:   aws.String("arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy"),
				AccessScope: &types.AccessScope{Type: types.AccessScopeTypeNamespace, Namespaces: []string{"apps"}}})
			return observe(err, nil)
		}},
		{"ListAccessEntries", func(c *clusters) outcome {
			out, err := c.eks.ListAccessEntries(ctx, &eks.ListAccessEntriesInput{ClusterName: modern})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"entries": strconv.Itoa(len(out.AccessEntries))})
		}},
		{"ListAccessPolicies", func(c *clusters) outcome {
			_, err := c.eks.ListAccessPolicies(ctx, &eks.ListAccessPoliciesInput{})
			return observe(err, nil)
		}},
		{"CreatePodIdentityAssociation", func(c *clusters) outcome {
			out, err := c.eks.CreatePodIdentityAssociation(ctx, &eks.CreatePodIdentityAssociationInput{ClusterName: modern, Namespace: aws.String("apps"),
				ServiceAccount: aws.String("api"), RoleArn: role})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"namespace": aws.ToString(out.Association.Namespace)})
		}},
		{"ListPodIdentityAssociations", func(c *clusters) outcome {
			out, err := c.eks.ListPodIdentityAssociations(ctx, &eks.ListPodIdentityAssociationsInput{ClusterName: modern})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"associations": strconv.Itoa(len(out.Associations))})
		}},
	}
}

// TestEKSAccessAgainstMoto compares cluster access configurations with moto's EKS, and checks
// that the access entry and Pod Identity operations moto lacks answer as the Amazon EKS API
// Reference documents on the emulator's side (eks_access_test.go and eks_podidentity_test.go in
// emulator/ check them in full).
func TestEKSAccessAgainstMoto(t *testing.T) {
	emu, moto := eksSides(t)
	// moto 5.2.1's CreateCluster, DescribeCluster and UpdateClusterConfig ignore accessConfig.
	const noAccessConfig = "moto keeps no accessConfig and answers none; AWS answers the authentication mode"
	compare(t, emu, moto, "moto "+motoVersion, eksAccessSteps(), map[string]string{
		"CreateDefaultAccess":             noAccessConfig + ", CONFIG_MAP by default for API clients, with bootstrapClusterCreatorAdminPermissions true (CreateAccessConfigRequest)",
		"DescribeDefaultAccess":           noAccessConfig,
		"CreateAPIAccess":                 noAccessConfig,
		"DescribeAPIAccess":               noAccessConfig,
		"CreateConfigMapWithoutBootstrap": "moto accepts it; AWS answers InvalidParameterException: bootstrapClusterCreatorAdminPermissions must be true if cluster authentication mode is set to CONFIG_MAP",
		"CreateAccessEntryInConfigMap":    notImplemented + "; AWS refuses it in CONFIG_MAP with InvalidRequestException",
		"UpdateModeForward":               "moto ignores accessConfig and answers the cluster instead of an Update; AWS starts an AccessConfigUpdate",
		"DescribeUpdatedMode":             noAccessConfig + ", API_AND_CONFIG_MAP once the update ends",
		"UpdateModeBack":                  "moto accepts it; AWS answers InvalidParameterException: Unsupported authentication mode update from API_AND_CONFIG_MAP to CONFIG_MAP.",
		"CreateAccessEntry":               notImplemented,
		"CreateAccessEntryAgain":          notImplemented + "; AWS answers ResourceInUseException for a second entry of a principal",
		"AssociateAccessPolicy":           notImplemented,
		"ListAccessEntries":               notImplemented,
		"ListAccessPolicies":              notImplemented,
		"CreatePodIdentityAssociation":    notImplemented,
		"ListPodIdentityAssociations":     notImplemented,
	})
}
