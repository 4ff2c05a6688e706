package core

import "testing"

// TestEvaluate checks the decisions of identity-based policies: wildcards in actions (without
// regard to case) and resources, NotAction and NotResource, a Deny that wins over an Allow in
// another document, statements with a Condition ignored, and no statement meaning no access.
func TestEvaluate(t *testing.T) {
	const queue = "arn:aws:sqs:us-east-1:123456789012:orders"
	cases := map[string]struct {
		docs   []string
		action string
		want   Decision
	}{
		"no policies": {nil, "sqs:ReceiveMessage", ImplicitDeny},
		"an exact action": {[]string{`{"Statement":[{"Effect":"Allow","Action":"sqs:ReceiveMessage","Resource":"*"}]}`},
			"sqs:ReceiveMessage", Allowed},
		"another action": {[]string{`{"Statement":[{"Effect":"Allow","Action":"sqs:SendMessage","Resource":"*"}]}`},
			"sqs:ReceiveMessage", ImplicitDeny},
		"a prefix wildcard in another case": {[]string{`{"Statement":{"Effect":"Allow","Action":["SQS:receive*"],"Resource":"*"}}`},
			"sqs:ReceiveMessage", Allowed},
		"a question mark": {[]string{`{"Statement":{"Effect":"Allow","Action":"sqs:?eceiveMessage","Resource":"*"}}`},
			"sqs:ReceiveMessage", Allowed},
		"every action": {[]string{`{"Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}`}, "sqs:ReceiveMessage", Allowed},
		"a resource wildcard": {[]string{`{"Statement":{"Effect":"Allow","Action":"sqs:*","Resource":"arn:aws:sqs:*:123456789012:ord*"}}`},
			"sqs:ReceiveMessage", Allowed},
		"another resource": {[]string{`{"Statement":{"Effect":"Allow","Action":"sqs:*","Resource":"arn:aws:sqs:*:123456789012:jobs"}}`},
			"sqs:ReceiveMessage", ImplicitDeny},
		"resources compared with case": {[]string{`{"Statement":{"Effect":"Allow","Action":"sqs:*","Resource":"arn:aws:sqs:*:123456789012:Orders"}}`},
			"sqs:ReceiveMessage", ImplicitDeny},
		"NotAction excluding the action": {[]string{`{"Statement":{"Effect":"Allow","NotAction":["sqs:*"],"Resource":"*"}}`},
			"sqs:ReceiveMessage", ImplicitDeny},
		"NotAction of another service": {[]string{`{"Statement":{"Effect":"Allow","NotAction":["iam:*"],"Resource":"*"}}`},
			"sqs:ReceiveMessage", Allowed},
		"NotResource excluding the queue": {[]string{`{"Statement":{"Effect":"Allow","Action":"sqs:*","NotResource":"` + queue + `"}}`},
			"sqs:ReceiveMessage", ImplicitDeny},
		"NotResource of another queue": {[]string{`{"Statement":{"Effect":"Allow","Action":"sqs:*","NotResource":["arn:aws:sqs:*:*:jobs"]}}`},
			"sqs:ReceiveMessage", Allowed},
		"a Deny in another document": {[]string{`{"Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}`,
			`{"Statement":{"Effect":"Deny","Action":"sqs:Receive*","Resource":"*"}}`}, "sqs:ReceiveMessage", ExplicitDeny},
		"an Allow with a Condition": {[]string{`{"Statement":{"Effect":"Allow","Action":"sqs:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"true"}}}}`},
			"sqs:ReceiveMessage", ImplicitDeny},
		"a Deny with a Condition": {[]string{`{"Statement":[{"Effect":"Allow","Action":"sqs:*","Resource":"*"},{"Effect":"Deny","Action":"sqs:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`},
			"sqs:ReceiveMessage", Allowed},
		"a document that is not a policy": {[]string{`not json`}, "sqs:ReceiveMessage", ImplicitDeny},
	}
	for name, tc := range cases {
		if got := Evaluate(tc.docs, tc.action, queue); got != tc.want {
			t.Errorf("%s: Evaluate(%s) = %v, want %v", name, tc.action, got, tc.want)
		}
	}
}

// TestWildcardMatch checks * and ? in patterns, backtracking over a * included.
func TestWildcardMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, value string
		want           bool
	}{
		{"*", "", true},
		{"a*c", "abbbc", true},
		{"a*c", "abcd", false},
		{"a*b*c", "axbxbxc", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"abc", "abc", true},
		{"abc", "ab", false},
		{"*:orders", "arn:aws:sqs:us-east-1:1:orders", true},
	} {
		if got := wildcardMatch(tc.pattern, tc.value); got != tc.want {
			t.Errorf("wildcardMatch(%q, %q) = %v, want %v", tc.pattern, tc.value, got, tc.want)
		}
	}
}
