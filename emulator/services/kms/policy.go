package kms

import (
	"encoding/json"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// policyName is the name of the one key policy every key has.
const policyName = "default"

// maxPolicy is the largest key policy KMS accepts, in characters (Quotas, Key policy document
// size: 32 KB); a larger one answers LimitExceededException (CreateKey, Policy).
const maxPolicy = 32768

// defaultPolicy returns the default key policy of a key made without one: the account's root
// principal, and so the IAM policies of the account, may do everything with the key (Default
// key policy, in the AWS KMS Developer Guide).
func defaultPolicy(scope core.Scope) string {
	return formatPolicy(map[string]any{
		"Version": "2012-10-17",
		"Id":      "key-default-1",
		"Statement": []any{map[string]any{
			"Sid":       "Enable IAM User Permissions",
			"Effect":    "Allow",
			"Principal": map[string]any{"AWS": "arn:aws:iam::" + scope.Account + ":root"},
			"Action":    "kms:*",
			"Resource":  "*",
		}},
	})
}

// policyOrder is the order AWS writes the elements of its policies in; others follow in
// alphabetical order.
var policyOrder = []string{"Version", "Id", "Statement", "Sid", "Effect", "Principal", "Action", "Resource", "Condition"}

// formatPolicy writes a policy document the way KMS returns the policies it writes: elements in
// AWS's order, two-space indentation, " : " between names and values, and lists on one line.
func formatPolicy(doc map[string]any) string {
	var b strings.Builder
	writePolicyValue(&b, doc, 0)
	return b.String()
}

// writePolicyValue writes one value of a policy document at an indentation level.
func writePolicyValue(b *strings.Builder, v any, level int) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		rank := func(k string) int {
			for i, o := range policyOrder {
				if o == k {
					return i
				}
			}
			return len(policyOrder)
		}
		sort.Slice(keys, func(i, j int) bool {
			if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
				return ri < rj
			}
			return keys[i] < keys[j]
		})
		b.WriteString("{\n")
		for i, k := range keys {
			b.WriteString(strings.Repeat("  ", level+1))
			name, _ := json.Marshal(k)
			b.Write(name)
			b.WriteString(" : ")
			writePolicyValue(b, v[k], level+1)
			if i < len(keys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(strings.Repeat("  ", level) + "}")
	case []any:
		b.WriteString("[ ")
		for i, item := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writePolicyValue(b, item, level)
		}
		b.WriteString(" ]")
	default:
		out, _ := json.Marshal(v)
		b.Write(out)
	}
}

// checkPolicy returns KMS's error for a key policy it refuses: LimitExceededException when it
// is too long, MalformedPolicyDocumentException when it is not a JSON policy document or a
// statement lacks a valid Effect or a principal (CreateKey, Policy: each statement must contain
// one or more principals). Statements without an Action or Resource are accepted, as KMS
// accepts them (they have no effect).
func checkPolicy(policy string) error {
	if n := utf8.RuneCountInString(policy); n > maxPolicy {
		return core.Errorf("LimitExceededException", "The key policy is %d characters long; a key policy can be at most %d.", n, maxPolicy)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(policy), &doc); err != nil {
		return malformedPolicy("The key policy is not a valid JSON document: %v", err)
	}
	var statements []any
	switch s := doc["Statement"].(type) {
	case []any:
		statements = s
	case map[string]any:
		statements = []any{s}
	}
	if len(statements) == 0 {
		return malformedPolicy("The key policy must contain at least one statement.")
	}
	for _, raw := range statements {
		s, ok := raw.(map[string]any)
		if !ok {
			return malformedPolicy("Each policy statement must be a JSON object.")
		}
		if effect := s["Effect"]; effect != "Allow" && effect != "Deny" {
			return malformedPolicy("Policy statement has an invalid Effect: it must be Allow or Deny.")
		}
		if s["Principal"] == nil && s["NotPrincipal"] == nil {
			return malformedPolicy("Policy contains a statement with no principal.")
		}
	}
	return nil
}

// checkPolicyName returns AWS's answer to a policy name other than "default", the only one a
// key has; absent, the name is "default".
func checkPolicyName(name *string) error {
	if name != nil && *name != policyName {
		return core.Errorf("NotFoundException", "No such policy exists")
	}
	return nil
}

// getKeyPolicy answers a key's key policy (GetKeyPolicy).
func (b *Backend) getKeyPolicy(call *core.Call, in *kms.GetKeyPolicyInput) (*kms.GetKeyPolicyOutput, error) {
	return withKey(b, call, in.KeyId, false, func(k *key) (*kms.GetKeyPolicyOutput, error) {
		if err := checkPolicyName(in.PolicyName); err != nil {
			return nil, err
		}
		return &kms.GetKeyPolicyOutput{Policy: aws.String(k.policy), PolicyName: aws.String(policyName)}, nil
	})
}

// putKeyPolicy replaces a customer managed key's key policy (PutKeyPolicy).
func (b *Backend) putKeyPolicy(call *core.Call, in *kms.PutKeyPolicyInput) (*kms.PutKeyPolicyOutput, error) {
	if in.Policy == nil {
		return nil, missing("policy")
	}
	return withKey(b, call, in.KeyId, false, func(k *key) (*kms.PutKeyPolicyOutput, error) {
		if err := checkPolicyName(in.PolicyName); err != nil {
			return nil, err
		}
		if err := customerOnly(call, k, "PutKeyPolicy"); err != nil {
			return nil, err
		}
		if err := checkPolicy(*in.Policy); err != nil {
			return nil, err
		}
		k.policy = *in.Policy
		return &kms.PutKeyPolicyOutput{}, nil
	})
}

// listKeyPolicies answers the names of a key's key policies: "default", the only one (ListKeyPolicies).
func (b *Backend) listKeyPolicies(call *core.Call, in *kms.ListKeyPoliciesInput) (*kms.ListKeyPoliciesOutput, error) {
	limit, err := pageLimit(in.Limit, 1000, 100)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, _, err := b.lookup(call, aws.ToString(in.KeyId), false); err != nil {
		return nil, err
	}
	names, next, err := page([]string{policyName}, func(n string) string { return n }, aws.ToString(in.Marker), limit)
	if err != nil {
		return nil, err
	}
	return &kms.ListKeyPoliciesOutput{PolicyNames: names, NextMarker: next, Truncated: next != nil}, nil
}
