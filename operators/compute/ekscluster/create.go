package ekscluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the cluster with the spec's version, role, network, endpoint access, logging,
// encryption and access configuration (see createAccessConfig), the desired tags (ownership
// included, so that a cluster whose answer is lost is still found as this object's) and o's
// UID as the idempotency token, and records its name.
// The node groups and add-ons are created by later observations, once the cluster is ACTIVE.
// A name taken in the meantime is an error retried with backoff: the next Observe claims the
// cluster found under the name or refuses it (managed.Claim).
func (d *driver) Create(ctx context.Context, o *v1alpha1.EKSCluster, req managed.Request) error {
	s, name := &o.Spec, clusterName(o)
	v := &s.ResourcesVPCConfig
	in := &eks.CreateClusterInput{
		Name:    aws.String(name),
		Version: aws.String(s.Version),
		RoleArn: aws.String(s.RoleARN),
		ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: v.SubnetIDs, SecurityGroupIds: v.SecurityGroupIDs,
			EndpointPublicAccess: aws.Bool(publicAccess(v)), EndpointPrivateAccess: aws.Bool(aws.ToBool(v.EndpointPrivateAccess)),
			PublicAccessCidrs: v.PublicAccessCIDRs},
		Logging:            logging(s.Logging),
		EncryptionConfig:   encryptionConfig(s.Encryption),
		AccessConfig:       createAccessConfig(s.AccessConfig),
		Tags:               req.Tags,
		ClientRequestToken: aws.String(string(o.GetUID())),
	}
	if _, err := d.api.CreateCluster(ctx, in); err != nil {
		return fmt.Errorf("create EKS cluster %s: %w", name, err)
	}
	managed.SetExternalName(o, name)
	return nil
}
