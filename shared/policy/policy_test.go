package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEquivalent(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   string
		want   bool
	}{
		"Spacing": {
			reason: "Spacing and key order do not matter.",
			a:      `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`,
			b:      `{ "Statement": [ { "Resource": "*", "Action": "s3:GetObject", "Effect": "Allow" } ], "Version": "2012-10-17" }`,
			want:   true,
		},
		"SingleStatement": {
			reason: "A single statement may be an object or a list of one.",
			a:      `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"sqs:SendMessage","Resource":"*"}}`,
			b:      `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["sqs:SendMessage"],"Resource":["*"]}]}`,
			want:   true,
		},
		"StatementOrder": {
			reason: "The order of statements does not matter.",
			a:      `{"Statement":[{"Sid":"a","Effect":"Allow","Action":"x:A","Resource":"*"},{"Sid":"b","Effect":"Deny","Action":"x:B","Resource":"*"}]}`,
			b:      `{"Statement":[{"Sid":"b","Effect":"Deny","Action":"x:B","Resource":"*"},{"Sid":"a","Effect":"Allow","Action":"x:A","Resource":"*"}]}`,
			want:   true,
		},
		"ActionOrder": {
			reason: "Actions, principals and condition values are sets.",
			a: `{"Statement":[{"Effect":"Allow","Action":["s3:PutObject","s3:GetObject"],"Principal":{"AWS":["arn:aws:iam::1:root","arn:aws:iam::2:root"]},` +
				`"Resource":"*","Condition":{"StringEquals":{"aws:SourceVpc":["vpc-2","vpc-1"]}}}]}`,
			b: `{"Statement":[{"Effect":"Allow","Action":["s3:GetObject","s3:PutObject"],"Principal":{"AWS":["arn:aws:iam::2:root","arn:aws:iam::1:root"]},` +
				`"Resource":["*"],"Condition":{"StringEquals":{"aws:SourceVpc":["vpc-1","vpc-2"]}}}]}`,
			want: true,
		},
		"DefaultVersion": {
			reason: "A document without a Version has AWS's default one.",
			a:      `{"Statement":[{"Effect":"Allow","Action":"x:A","Resource":"*"}]}`,
			b:      `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"x:A","Resource":"*"}]}`,
			want:   true,
		},
		"DifferentEffect": {
			reason: "A different effect is a different policy.",
			a:      `{"Statement":[{"Effect":"Allow","Action":"x:A","Resource":"*"}]}`,
			b:      `{"Statement":[{"Effect":"Deny","Action":"x:A","Resource":"*"}]}`,
			want:   false,
		},
		"ExtraAction": {
			reason: "An extra action is a different policy.",
			a:      `{"Statement":[{"Effect":"Allow","Action":"x:A","Resource":"*"}]}`,
			b:      `{"Statement":[{"Effect":"Allow","Action":["x:A","x:B"],"Resource":"*"}]}`,
			want:   false,
		},
		"Empty": {
			reason: "The empty policy equals only itself.",
			a:      "",
			b:      `{"Statement":[]}`,
			want:   false,
		},
		"NotJSON": {
			reason: "Text that is not JSON compares as text.",
			a:      "not json",
			b:      "not json",
			want:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Equivalent(tc.a, tc.b)); diff != "" {
				t.Errorf("%s\nEquivalent(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
