package differential

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/runner-codes/infra-operator/emulator"
)

// resourceReaders are one side's clients for the resource-scoped reads added for other tools.
type resourceReaders struct {
	secrets *secretsmanager.Client
	sns     *sns.Client
}

// resourceReadsSteps reads, sets and removes a secret's resource policy and a topic's data
// protection policy.
func resourceReadsSteps() []step[*resourceReaders] {
	ctx := context.Background()
	secret := aws.String("diff-reads-secret")
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"secretsmanager:GetSecretValue","Resource":"*"}]}`
	public := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"secretsmanager:GetSecretValue","Resource":"*"}]}`
	getPolicy := func(c *resourceReaders) outcome {
		out, err := c.secrets.GetResourcePolicy(ctx, &secretsmanager.GetResourcePolicyInput{SecretId: secret})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"name": aws.ToString(out.Name), "policy": fmt.Sprint(out.ResourcePolicy != nil && aws.ToString(out.ResourcePolicy) == policy)})
	}
	topicARN := func(c *resourceReaders) *string {
		out, err := c.sns.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("diff-reads-topic")})
		if err != nil {
			return aws.String("missing")
		}
		return out.TopicArn
	}
	protection := `{"Name":"basic","Description":"","Version":"2021-06-01","Statement":[{"Sid":"audit","DataDirection":"Inbound","Principal":["*"],` +
		`"DataIdentifier":["arn:aws:dataprotection::aws:data-identifier/EmailAddress"],"Operation":{"Audit":{"SampleRate":"99","FindingsDestination":{}}}}]}`
	return []step[*resourceReaders]{
		{"CreateSecret", func(c *resourceReaders) outcome {
			_, err := c.secrets.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: secret, SecretString: aws.String("v")})
			return observe(err, nil)
		}},
		{"GetResourcePolicyNone", getPolicy},
		{"PutResourcePolicyPublicBlocked", func(c *resourceReaders) outcome {
			_, err := c.secrets.PutResourcePolicy(ctx, &secretsmanager.PutResourcePolicyInput{SecretId: secret, ResourcePolicy: aws.String(public), BlockPublicPolicy: aws.Bool(true)})
			return observe(err, nil)
		}},
		{"PutResourcePolicy", func(c *resourceReaders) outcome {
			_, err := c.secrets.PutResourcePolicy(ctx, &secretsmanager.PutResourcePolicyInput{SecretId: secret, ResourcePolicy: aws.String(policy)})
			if err != nil {
				return observe(err, nil)
			}
			return getPolicy(c)
		}},
		{"DeleteResourcePolicy", func(c *resourceReaders) outcome {
			if _, err := c.secrets.DeleteResourcePolicy(ctx, &secretsmanager.DeleteResourcePolicyInput{SecretId: secret}); err != nil {
				return observe(err, nil)
			}
			return getPolicy(c)
		}},
		{"GetResourcePolicyMissingSecret", func(c *resourceReaders) outcome {
			_, err := c.secrets.GetResourcePolicy(ctx, &secretsmanager.GetResourcePolicyInput{SecretId: aws.String("diff-reads-missing")})
			return observe(err, nil)
		}},
		{"GetDataProtectionPolicyNone", func(c *resourceReaders) outcome {
			out, err := c.sns.GetDataProtectionPolicy(ctx, &sns.GetDataProtectionPolicyInput{ResourceArn: topicARN(c)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"policy": aws.ToString(out.DataProtectionPolicy)})
		}},
		{"PutDataProtectionPolicy", func(c *resourceReaders) outcome {
			arn := topicARN(c)
			if _, err := c.sns.PutDataProtectionPolicy(ctx, &sns.PutDataProtectionPolicyInput{ResourceArn: arn, DataProtectionPolicy: aws.String(protection)}); err != nil {
				return observe(err, nil)
			}
			out, err := c.sns.GetDataProtectionPolicy(ctx, &sns.GetDataProtectionPolicyInput{ResourceArn: arn})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"same": fmt.Sprint(aws.ToString(out.DataProtectionPolicy) == protection)})
		}},
		{"GetDataProtectionPolicyMissingTopic", func(c *resourceReaders) outcome {
			_, err := c.sns.GetDataProtectionPolicy(ctx, &sns.GetDataProtectionPolicyInput{ResourceArn: aws.String("arn:aws:sns:us-east-1:123456789012:diff-missing")})
			return observe(err, nil)
		}},
	}
}

// TestResourceReadsAgainstMoto compares Secrets Manager's resource policies and SNS's data
// protection policies with moto_server's.
func TestResourceReadsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *resourceReaders {
		cfg := sdkConfig(t, url)
		return &resourceReaders{secrets: secretsmanager.NewFromConfig(cfg), sns: sns.NewFromConfig(cfg)}
	}
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, resourceReadsSteps(), map[string]string{
		"PutResourcePolicyPublicBlocked": "moto accepts a policy allowing Principal \"*\" with BlockPublicPolicy set; AWS refuses it with PublicPolicyException",
		"GetDataProtectionPolicyNone":    "moto answers HTTP 500 (an internal error) to GetDataProtectionPolicy; AWS returns the topic's policy, empty without one",
		"PutDataProtectionPolicy":        "moto answers HTTP 500 (an internal error) to PutDataProtectionPolicy; AWS stores the policy and returns it",
		"GetDataProtectionPolicyMissingTopic": "moto answers HTTP 500 (an internal error) to GetDataProtectionPolicy; AWS answers NotFound " +
			"for a topic that does not exist",
	})
}
