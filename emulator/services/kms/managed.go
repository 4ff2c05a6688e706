package kms

import (
	"fmt"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// managedServices are the services whose AWS managed key (alias/aws/<service>) the emulator
// makes on first use, as AWS does when a service first encrypts with it.
var managedServices = map[string]bool{
	"acm": true, "backup": true, "codecommit": true, "dynamodb": true, "ebs": true, "ecr": true,
	"elasticfilesystem": true, "es": true, "glue": true, "kinesis": true, "kinesisvideo": true,
	"lambda": true, "rds": true, "redshift": true, "s3": true, "secretsmanager": true, "sns": true,
	"sqs": true, "ssm": true, "xray": true,
}

// managedRotationDays is the rotation period of AWS managed keys, which AWS rotates every year.
const managedRotationDays = 365

// newManagedKey returns the AWS managed key of service in scope: a symmetric encryption key
// that rotates every year, whose key policy lets the account use it through the service only.
func newManagedKey(scope core.Scope, now time.Time, service string) *key {
	id := newKeyID(false)
	m := newMaterial()
	m.rotation, m.period, m.next = true, managedRotationDays, now.Add(managedRotationDays*day)
	return &key{
		id: id, arn: keyARN(scope, id), scope: scope, created: now, state: stateEnabled,
		description: fmt.Sprintf("Default key that protects my %s data when no other key is defined", service),
		spec:        specSymmetric, usage: usageEncrypt, manager: managerAWS, material: m,
		policy: managedPolicy(scope, service),
	}
}

// managedPolicy returns the key policy of an AWS managed key: the account's principals may use
// it for cryptography through the service, and read it directly (AWS managed keys, in the AWS
// KMS Developer Guide).
func managedPolicy(scope core.Scope, service string) string {
	return formatPolicy(map[string]any{
		"Version": "2012-10-17",
		"Id":      "auto-" + service + "-1",
		"Statement": []any{
			map[string]any{
				"Sid":       "Allow access through " + service + " for all principals in the account that are authorized to use " + service,
				"Effect":    "Allow",
				"Principal": map[string]any{"AWS": "*"},
				"Action":    []any{"kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:DescribeKey"},
				"Resource":  "*",
				"Condition": map[string]any{"StringEquals": map[string]any{
					"kms:CallerAccount": scope.Account,
					"kms:ViaService":    service + "." + scope.Region + ".amazonaws.com",
				}},
			},
			map[string]any{
				"Sid":       "Allow direct access to key metadata to the account",
				"Effect":    "Allow",
				"Principal": map[string]any{"AWS": "arn:aws:iam::" + scope.Account + ":root"},
				"Action":    []any{"kms:Describe*", "kms:Get*", "kms:List*"},
				"Resource":  "*",
			},
		},
	})
}
