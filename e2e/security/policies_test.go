package security_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPolicies runs the shared policy check on a KMSKey: its outputs in a ConfigMap, a
// description changed outside the operator reported (driftPolicy Report) and then restored
// (Enforce), and a second object that only observes the key. A deleted key is one scheduled
// for deletion, as KMS deletes keys.
func TestPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	api := h.kmsClient()
	describe := func(ctx context.Context, k *v1alpha1.KMSKey) (*types.KeyMetadata, error) {
		out, err := api.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String(k.Status.KeyID)})
		if err != nil {
			return nil, err
		}
		return out.KeyMetadata, nil
	}
	kubetest.RunPolicyCheck(t, h.c, kubetest.PolicyCheck[*v1alpha1.KMSKey]{
		New: func(name string) *v1alpha1.KMSKey {
			return newKMSKey(ns, name, func(k *v1alpha1.KMSKey) {
				k.Spec.Description, k.Spec.EnableKeyRotation = "policy check", true
				k.Spec.Tags = map[string]string{"team": "security"}
			})
		},
		Outputs: []string{"keyID", "arn"},
		Drift: func(ctx context.Context, k *v1alpha1.KMSKey) error {
			_, err := api.UpdateKeyDescription(ctx, &kms.UpdateKeyDescriptionInput{KeyId: aws.String(k.Status.KeyID), Description: aws.String("changed by hand")})
			return err
		},
		DriftField: "description",
		Drifted: func(ctx context.Context, k *v1alpha1.KMSKey) (bool, error) {
			key, err := describe(ctx, k)
			return err == nil && aws.ToString(key.Description) == "changed by hand", err
		},
		Exists: func(ctx context.Context, k *v1alpha1.KMSKey) (bool, error) {
			key, err := describe(ctx, k)
			if found, err := kubetest.Found(err); !found {
				return false, err
			}
			return key.KeyState != types.KeyStatePendingDeletion, nil
		},
	})
}
