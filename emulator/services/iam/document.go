package iam

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// docKind is what a policy document is for, which decides the rules it keeps.
type docKind int

// The kinds of policy documents.
const (
	// trustPolicy is a role's AssumeRolePolicyDocument: a resource-based policy that names who
	// may assume the role, so it has principals and no resources.
	trustPolicy docKind = iota
	// inlinePolicy is an identity-based policy embedded in a role (PutRolePolicy).
	inlinePolicy
	// managedPolicy is a version of a managed policy (CreatePolicy, CreatePolicyVersion), which
	// AWS requires to be in policy language version 2012-10-17.
	managedPolicy
)

// Size quotas of policy documents in characters, whitespace not counted (IAM User Guide, IAM and
// AWS STS quotas).
const (
	maxTrustPolicy   = 2048
	maxManagedPolicy = 6144
	maxInlinePolicy  = 10240 // all the inline policies of a role together
)

// The elements a policy and its statements may have (IAM JSON policy element reference).
var (
	topElements       = map[string]bool{"Version": true, "Id": true, "Statement": true}
	statementElements = map[string]bool{"Sid": true, "Effect": true, "Action": true, "NotAction": true, "Resource": true,
		"NotResource": true, "Principal": true, "NotPrincipal": true, "Condition": true}
	languageVersions = map[string]bool{"2012-10-17": true, "2008-10-17": true}
)

// vendorPattern is what may come before the colon of an action: a service prefix.
var vendorPattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+$`)

// malformed returns IAM's MalformedPolicyDocument error with message.
func malformed(message string) *core.APIError {
	return core.Errorf("MalformedPolicyDocument", "%s", message)
}

// errSyntax is AWS's answer to a document that is not JSON or not in the policy grammar.
const errSyntax = "Syntax errors in policy."

// checkDocument returns the MalformedPolicyDocument error AWS gives a policy document of kind that
// breaks the policy grammar, or nil. It checks, in this order, with AWS's messages:
//   - the document is a JSON object whose elements are Version, Id and Statement; Version, when
//     present, is "2012-10-17" or "2008-10-17" (when absent, IAM takes 2008-10-17); Statement is
//     a statement or a non-empty list of them; each statement has only the elements of the
//     grammar, an Effect, never both an element and its Not form, actions and resources that
//     are strings or lists of strings, and a Condition that is an object of objects;
//   - a managed policy's Version is 2012-10-17;
//   - Effect is exactly Allow or Deny ("The policy failed legacy parsing" for "allow");
//   - statement IDs (Sid) are unique;
//   - every statement has Action or NotAction, not empty;
//   - an identity-based policy (managed or inline) has no Principal and has Resource or
//     NotResource in every statement; a trust policy has no Resource and has Principal or
//     NotPrincipal in every statement;
//   - every action is "*" or service:action with one colon and a valid service prefix;
//   - every resource of an identity-based policy is "*" or an ARN.
//
// Principals, condition operators and keys, and the services and actions named are not checked
// further.
func checkDocument(doc string, kind docKind) error {
	var v any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return malformed(errSyntax)
	}
	policy, ok := v.(map[string]any)
	if !ok {
		return malformed(errSyntax)
	}
	statements, ok := policySyntax(policy)
	if !ok {
		return malformed(errSyntax)
	}
	if kind == managedPolicy && policy["Version"] != "2012-10-17" {
		return malformed("Policy document must be version 2012-10-17 or greater.")
	}
	sids := map[string]bool{}
	for _, s := range statements {
		if e := s["Effect"]; e != "Allow" && e != "Deny" {
			return malformed("The policy failed legacy parsing")
		}
		if sid, _ := s["Sid"].(string); sid != "" {
			if sids[sid] {
				return malformed("Statement IDs (SID) in a single policy must be unique.")
			}
			sids[sid] = true
		}
	}
	for _, s := range statements {
		if !present(s, "Action") && !present(s, "NotAction") {
			return malformed("Policy statement must contain actions.")
		}
	}
	for _, s := range statements {
		_, principal := s["Principal"]
		_, notPrincipal := s["NotPrincipal"]
		_, resource := s["Resource"]
		_, notResource := s["NotResource"]
		if kind == trustPolicy {
			if resource || notResource {
				return malformed("Has prohibited field Resource.")
			}
			if !principal && !notPrincipal {
				return malformed("Missing required field Principal.")
			}
			continue
		}
		if principal || notPrincipal {
			return malformed("Policy document should not specify a principal.")
		}
		if !present(s, "Resource") && !present(s, "NotResource") {
			return malformed("Policy statement must contain resources.")
		}
	}
	for _, s := range statements {
		for _, a := range append(values(s["Action"]), values(s["NotAction"])...) {
			if err := checkAction(a); err != nil {
				return err
			}
		}
		if kind == trustPolicy {
			continue
		}
		for _, r := range append(values(s["Resource"]), values(s["NotResource"])...) {
			if r != "*" && !strings.HasPrefix(r, "arn:") {
				return malformed(fmt.Sprintf("Resource %s must be in ARN format or \"*\".", r))
			}
		}
	}
	return nil
}

// policySyntax checks a policy's grammar (the first rule of checkDocument) and returns its
// statements.
func policySyntax(policy map[string]any) ([]map[string]any, bool) {
	for k := range policy {
		if !topElements[k] {
			return nil, false
		}
	}
	if v, ok := policy["Version"]; ok {
		if s, isString := v.(string); !isString || !languageVersions[s] {
			return nil, false
		}
	}
	if id, ok := policy["Id"]; ok {
		if _, isString := id.(string); !isString {
			return nil, false
		}
	}
	var statements []map[string]any
	switch st := policy["Statement"].(type) {
	case map[string]any:
		statements = append(statements, st)
	case []any:
		for _, s := range st {
			m, ok := s.(map[string]any)
			if !ok {
				return nil, false
			}
			statements = append(statements, m)
		}
	}
	if len(statements) == 0 {
		return nil, false
	}
	for _, s := range statements {
		if !statementSyntax(s) {
			return nil, false
		}
	}
	return statements, true
}

// statementSyntax reports whether one statement keeps the policy grammar.
func statementSyntax(s map[string]any) bool {
	for k := range s {
		if !statementElements[k] {
			return false
		}
	}
	for _, pair := range [][2]string{{"Action", "NotAction"}, {"Resource", "NotResource"}, {"Principal", "NotPrincipal"}} {
		_, a := s[pair[0]]
		_, b := s[pair[1]]
		if a && b {
			return false
		}
	}
	effect, ok := s["Effect"].(string)
	if !ok || (!strings.EqualFold(effect, "Allow") && !strings.EqualFold(effect, "Deny")) {
		return false
	}
	if sid, ok := s["Sid"]; ok {
		if _, isString := sid.(string); !isString {
			return false
		}
	}
	for _, k := range []string{"Action", "NotAction", "Resource", "NotResource"} {
		if v, ok := s[k]; ok && !stringOrList(v) {
			return false
		}
	}
	if c, ok := s["Condition"]; ok {
		operators, isObject := c.(map[string]any)
		if !isObject {
			return false
		}
		for _, o := range operators {
			if _, isObject := o.(map[string]any); !isObject {
				return false
			}
		}
	}
	return true
}

// stringOrList reports whether v is a string or a list of strings.
func stringOrList(v any) bool {
	switch v := v.(type) {
	case string:
		return true
	case []any:
		for _, e := range v {
			if _, ok := e.(string); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// present reports whether a statement has element k with at least one value.
func present(s map[string]any, k string) bool {
	v, ok := s[k]
	if !ok {
		return false
	}
	if list, isList := v.([]any); isList {
		return len(list) > 0
	}
	return true
}

// values returns the values of an element that is a string or a list of strings.
func values(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			out = append(out, e.(string))
		}
		return out
	}
	return nil
}

// checkAction returns AWS's error for an action that is neither "*" nor service:action.
func checkAction(action string) error {
	parts := strings.Split(action, ":")
	switch {
	case len(parts) == 1 && action != "*":
		return malformed("Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc.")
	case len(parts) > 2:
		return malformed("Actions/Condition can contain only one colon.")
	case len(parts) == 2 && parts[0] != "*" && !vendorPattern.MatchString(parts[0]):
		return malformed(fmt.Sprintf("Vendor %s is not valid", parts[0]))
	}
	return nil
}

// policySize returns the size of a policy document as IAM's quotas count it: its characters,
// whitespace excluded.
func policySize(doc string) int {
	n := 0
	for _, r := range doc {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			n++
		}
	}
	return n
}

// encodeDocument returns a policy document URL-encoded as IAM returns documents (RFC 3986): every
// byte but the unreserved characters A-Z, a-z, 0-9, "-", ".", "_" and "~" is written %XX.
func encodeDocument(doc string) string {
	const hex = "0123456789ABCDEF"
	var b bytes.Buffer
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
