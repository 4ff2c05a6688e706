package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestSecretsManagerResourcePolicy reads, sets and removes a secret's resource policy, with
// BlockPublicPolicy refusing a policy that allows everyone.
func TestSecretsManagerResourcePolicy(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := secretsmanager.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	s, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("policy-secret"), SecretString: aws.String("v")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetResourcePolicy(ctx, &secretsmanager.GetResourcePolicyInput{SecretId: s.ARN})
	if err != nil || got.ResourcePolicy != nil || aws.ToString(got.Name) != "policy-secret" {
		t.Errorf("GetResourcePolicy without a policy = %+v, %v; want the name and no policy", got, err)
	}
	public := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"secretsmanager:GetSecretValue","Resource":"*"}]}`
	_, err = c.PutResourcePolicy(ctx, &secretsmanager.PutResourcePolicyInput{SecretId: s.ARN, ResourcePolicy: aws.String(public), BlockPublicPolicy: aws.Bool(true)})
	if code := errorCode(err); code != "PublicPolicyException" {
		t.Errorf("a public policy with BlockPublicPolicy: got %q, want PublicPolicyException", code)
	}
	_, err = c.PutResourcePolicy(ctx, &secretsmanager.PutResourcePolicyInput{SecretId: s.ARN, ResourcePolicy: aws.String("{not json")})
	if code := errorCode(err); code != "MalformedPolicyDocumentException" {
		t.Errorf("a malformed policy: got %q, want MalformedPolicyDocumentException", code)
	}
	private := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::000000000000:root"},"Action":"secretsmanager:GetSecretValue","Resource":"*"}]}`
	if _, err := c.PutResourcePolicy(ctx, &secretsmanager.PutResourcePolicyInput{SecretId: aws.String("policy-secret"), ResourcePolicy: aws.String(private), BlockPublicPolicy: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetResourcePolicy(ctx, &secretsmanager.GetResourcePolicyInput{SecretId: s.ARN}); err != nil || aws.ToString(got.ResourcePolicy) != private {
		t.Errorf("GetResourcePolicy = %+v, %v; want the policy put", got, err)
	}
	if _, err := c.DeleteResourcePolicy(ctx, &secretsmanager.DeleteResourcePolicyInput{SecretId: s.ARN}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetResourcePolicy(ctx, &secretsmanager.GetResourcePolicyInput{SecretId: s.ARN}); err != nil || got.ResourcePolicy != nil {
		t.Errorf("GetResourcePolicy after delete = %+v, %v; want no policy", got, err)
	}
	if _, err := c.GetResourcePolicy(ctx, &secretsmanager.GetResourcePolicyInput{SecretId: aws.String("missing")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("GetResourcePolicy of a missing secret: %v", err)
	}
}

// TestSNSDataProtectionPolicy reads, sets and removes a topic's data protection policy.
func TestSNSDataProtectionPolicy(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := sns.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	topic, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("protected")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetDataProtectionPolicy(ctx, &sns.GetDataProtectionPolicyInput{ResourceArn: topic.TopicArn})
	if err != nil || aws.ToString(got.DataProtectionPolicy) != "" {
		t.Errorf("GetDataProtectionPolicy of a new topic = %+v, %v; want empty", got, err)
	}
	policy := `{"Name":"basic","Description":"","Version":"2021-06-01","Statement":[{"Sid":"audit","DataDirection":"Inbound","Principal":["*"],"DataIdentifier":["arn:aws:dataprotection::aws:data-identifier/EmailAddress"],"Operation":{"Audit":{"SampleRate":"99","FindingsDestination":{}}}}]}`
	if _, err := c.PutDataProtectionPolicy(ctx, &sns.PutDataProtectionPolicyInput{ResourceArn: topic.TopicArn, DataProtectionPolicy: aws.String(policy)}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetDataProtectionPolicy(ctx, &sns.GetDataProtectionPolicyInput{ResourceArn: topic.TopicArn}); err != nil || aws.ToString(got.DataProtectionPolicy) != policy {
		t.Errorf("GetDataProtectionPolicy = %+v, %v; want the policy put", got, err)
	}
	_, err = c.PutDataProtectionPolicy(ctx, &sns.PutDataProtectionPolicyInput{ResourceArn: topic.TopicArn, DataProtectionPolicy: aws.String(`{"Name":"x"}`)})
	if code := errorCode(err); code != "InvalidParameter" {
		t.Errorf("a policy without Version and statements: got %q, want InvalidParameter", code)
	}
	_, err = c.GetDataProtectionPolicy(ctx, &sns.GetDataProtectionPolicyInput{ResourceArn: aws.String("arn:aws:sns:us-east-1:000000000000:missing")})
	if code := errorCode(err); code != "NotFound" {
		t.Errorf("GetDataProtectionPolicy of a missing topic: got %q, want NotFound", code)
	}
}
