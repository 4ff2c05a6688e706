package iam

import (
	"net/url"
	"testing"
)

// TestEncodeDocument checks that documents are URL-encoded as RFC 3986 says, so that any
// decoder (url.PathUnescape, url.QueryUnescape, Python's unquote) gets the document back.
func TestEncodeDocument(t *testing.T) {
	doc := "{\n  \"Action\": \"s3:Get*\",\"Resource\": \"arn:aws:s3:::a+b/~x_y.z-1\", \"é\": \"100%\"}"
	enc := encodeDocument(doc)
	want := "%7B%0A%20%20%22Action%22%3A%20%22s3%3AGet%2A%22%2C%22Resource%22%3A%20%22arn%3Aaws%3As3%3A%3A%3Aa%2Bb%2F~x_y.z-1%22%2C%20%22%C3%A9%22%3A%20%22100%25%22%7D"
	if enc != want {
		t.Errorf("encodeDocument = %s\nwant %s", enc, want)
	}
	for name, decode := range map[string]func(string) (string, error){"PathUnescape": url.PathUnescape, "QueryUnescape": url.QueryUnescape} {
		if got, err := decode(enc); err != nil || got != doc {
			t.Errorf("%s of the encoded document = %q, %v", name, got, err)
		}
	}
}

// TestPolicySize checks that the size quotas do not count whitespace.
func TestPolicySize(t *testing.T) {
	if n := policySize("{ \"a\" :\n\t\"b c\"\r\n}"); n != 10 {
		t.Errorf("policySize = %d, want 10", n)
	}
}

// TestCheckDocumentKinds checks the rules that differ between the kinds of documents.
func TestCheckDocumentKinds(t *testing.T) {
	const (
		identity = `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*","Resource":"*"}}`
		legacy   = `{"Statement":{"Effect":"Allow","Action":"s3:*","Resource":"*"}}`
		trust    = `{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111111111111:root"},"Action":["sts:AssumeRole","sts:TagSession"]}]}`
	)
	cases := map[string]struct {
		doc  string
		kind docKind
		ok   bool
	}{
		"ManagedIdentity":    {identity, managedPolicy, true},
		"ManagedLegacy":      {legacy, managedPolicy, false},
		"InlineLegacy":       {legacy, inlinePolicy, true},
		"TrustWithoutVer":    {trust, trustPolicy, true},
		"TrustAsInline":      {trust, inlinePolicy, false},
		"IdentityAsTrust":    {identity, trustPolicy, false},
		"TrailingGarbage":    {identity + "x", inlinePolicy, false},
		"ArrayDocument":      {`[` + identity + `]`, inlinePolicy, false},
		"EmptyStatements":    {`{"Version":"2012-10-17","Statement":[]}`, inlinePolicy, false},
		"ConditionNotObject": {`{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*","Resource":"*","Condition":"x"}}`, inlinePolicy, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if err := checkDocument(tc.doc, tc.kind); (err == nil) != tc.ok {
				t.Errorf("checkDocument: %v, want ok %v", err, tc.ok)
			}
		})
	}
}
