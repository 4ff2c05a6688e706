package core

import "testing"

// TestPublicPolicy checks which principals and conditions make a resource policy public.
func TestPublicPolicy(t *testing.T) {
	for policy, want := range map[string]bool{
		`{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject"}]}`:                                      true,
		`{"Statement":{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"s3:GetObject"}}`:                                true,
		`{"Statement":[{"Effect":"Allow","Principal":{"AWS":["arn:aws:iam::111122223333:root","*"]}}]}`:                   true,
		`{"Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*"}]}`:                                               false,
		`{"Statement":[{"Effect":"Allow","Principal":"*","Condition":{"StringEquals":{"aws:SourceVpc":"vpc-1"}}}]}`:       false,
		`{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"s3:GetObject"}]}`: false,
		`{"Statement":[{"Effect":"Allow","Principal":{"Service":"logging.s3.amazonaws.com"},"Action":"s3:PutObject"}]}`:   false,
		`not json`: false,
	} {
		if got := PublicPolicy(policy); got != want {
			t.Errorf("PublicPolicy(%s) = %v, want %v", policy, got, want)
		}
	}
}

// TestPolicyStatements checks the statements PolicyStatements reads: a list, or one alone, and
// not a document without a Statement or one that is not JSON.
func TestPolicyStatements(t *testing.T) {
	type statement struct{ Effect string }
	for policy, want := range map[string][]statement{
		`{"Statement":[{"Effect":"Allow"},{"Effect":"Deny"}]}`: {{"Allow"}, {"Deny"}},
		`{"Statement":{"Effect":"Allow"}}`:                     {{"Allow"}},
		`{"Statement":[]}`:                                     {},
		`{"Version":"2012-10-17"}`:                             nil,
		`{"Statement":"Allow"}`:                                nil,
		`not json`:                                             nil,
	} {
		got, ok := PolicyStatements[statement](policy)
		if ok != (want != nil) || len(got) != len(want) || (len(want) > 0 && got[0] != want[0]) {
			t.Errorf("PolicyStatements(%s) = %v, %v; want %v", policy, got, ok, want)
		}
	}
}
