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
