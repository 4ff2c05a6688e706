package sns

import (
	"encoding/json"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// dataProtectionVersion is the only Version of SNS data protection policies.
const dataProtectionVersion = "2021-06-01"

// getDataProtectionPolicy returns a topic's data protection policy: empty for a topic without
// one, as AWS answers.
func (b *Backend) getDataProtectionPolicy(call *core.Call, in *sns.GetDataProtectionPolicyInput) (*sns.GetDataProtectionPolicyOutput, error) {
	return withTopic(b, call, in.ResourceArn, func(t *topic) (*sns.GetDataProtectionPolicyOutput, error) {
		return &sns.GetDataProtectionPolicyOutput{DataProtectionPolicy: aws.String(t.dataProtection)}, nil
	})
}

// putDataProtectionPolicy sets a topic's data protection policy: a JSON object with a Name,
// Version 2021-06-01 and at least one statement. An empty policy removes it. The policy is
// kept, not applied: messages are neither audited, masked nor denied.
func (b *Backend) putDataProtectionPolicy(call *core.Call, in *sns.PutDataProtectionPolicyInput) (*sns.PutDataProtectionPolicyOutput, error) {
	policy := aws.ToString(in.DataProtectionPolicy)
	if policy != "" {
		var doc struct {
			Name      string
			Version   string
			Statement []json.RawMessage
		}
		if err := json.Unmarshal([]byte(policy), &doc); err != nil || doc.Name == "" || doc.Version != dataProtectionVersion || len(doc.Statement) == 0 {
			return nil, errInvalid("DataProtectionPolicy Reason: the policy must be a JSON object with a Name, Version %s and Statements", dataProtectionVersion)
		}
	}
	return withTopic(b, call, in.ResourceArn, func(t *topic) (*sns.PutDataProtectionPolicyOutput, error) {
		t.dataProtection = policy
		return &sns.PutDataProtectionPolicyOutput{}, nil
	})
}
