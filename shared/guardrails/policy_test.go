package guardrails_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/guardrails"
)

func TestCheckPolicy(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   string
		want   string
	}{
		"Narrow": {
			reason: "A policy that allows reads of one bucket passes.",
			args:   `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"}]}`,
		},
		"Star": {
			reason: "A policy that allows every action is refused as an inline policy would be.",
			args:   `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`,
			want:   "PolicyDocumentDenied",
		},
		"PassRoleEverywhere": {
			reason: "iam:PassRole on every resource is refused.",
			args:   `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"iam:PassRole","Resource":"*"}]}`,
			want:   "PolicyDocumentDenied",
		},
		"Deny": {
			reason: "A Deny statement grants nothing.",
			args:   `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"*","Resource":"*"}]}`,
		},
		"NotJSON": {
			reason: "A document that is not JSON is an invalid spec.",
			args:   "allow",
			want:   "InvalidSpec",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := (&guardrails.IAM{}).CheckPolicy(tenant, "p", tc.args)
			got := ""
			var r *guardrails.Refusal
			if errors.As(err, &r) {
				got = r.Reason
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: %v\n-want +got:\n%s", tc.reason, err, diff)
			}
		})
	}
}
