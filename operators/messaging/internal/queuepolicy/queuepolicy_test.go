package queuepolicy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	topicARN = "arn:aws:sns:us-east-1:123456789012:events"
	queueARN = "arn:aws:sqs:us-east-1:123456789012:inbox"
	user     = `{"Version":"2012-10-17","Statement":{"Sid":"Owner","Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"}}`
)

// TestMerge checks the policy a queue should have: the user's statements and the topics'.
func TestMerge(t *testing.T) {
	withTopic := mustParse(t, user).WithStatement(TopicStatement(topicARN, queueARN))
	cases := map[string]struct {
		reason   string
		user     string
		observed Document
		want     string
	}{
		"Empty": {
			reason:   "No user policy and no topic statements is no policy.",
			observed: Document{},
			want:     "",
		},
		"UserOnly": {
			reason:   "The user's policy is kept as it is.",
			user:     user,
			observed: Document{},
			want:     `{"Statement":[{"Action":"sqs:*","Effect":"Allow","Principal":"*","Resource":"*","Sid":"Owner"}],"Version":"2012-10-17"}`,
		},
		"TopicKept": {
			reason:   "A topic's statement stays when the user removes the policy.",
			observed: withTopic,
			want: `{"Statement":[{"Action":"sqs:SendMessage","Condition":{"ArnEquals":{"aws:SourceArn":"` + topicARN + `"}},"Effect":"Allow",` +
				`"Principal":{"Service":"sns.amazonaws.com"},"Resource":"` + queueARN + `","Sid":"` + Sid(topicARN) + `"}],"Version":"2012-10-17"}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Merge(mustParse(t, tc.user), tc.observed.TopicStatements()).String()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nMerge: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestEqual checks that documents are compared by meaning.
func TestEqual(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   string
		want   bool
	}{
		"ObjectOrList": {reason: "A single statement equals a list of one.", a: user,
			b: `{"Version":"2012-10-17","Statement":[{"Sid":"Owner","Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"}]}`, want: true},
		"Order": {reason: "Statement order does not matter.",
			a: `{"Statement":[{"Sid":"A"},{"Sid":"B"}]}`, b: `{"Statement":[{"Sid":"B"},{"Sid":"A"}]}`, want: true},
		"Differs": {reason: "Another action differs.", a: user,
			b: `{"Version":"2012-10-17","Statement":{"Sid":"Owner","Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Resource":"*"}}`, want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Equal(mustParse(t, tc.a), mustParse(t, tc.b)); got != tc.want {
				t.Errorf("%s\nEqual = %v, want %v", tc.reason, got, tc.want)
			}
		})
	}
}

// TestWithout checks that removing the last statement leaves no policy.
func TestWithout(t *testing.T) {
	doc := Document{}.WithStatement(TopicStatement(topicARN, queueARN))
	if !doc.Has(TopicStatement(topicARN, queueARN)) {
		t.Fatalf("the statement was not added: %s", doc)
	}
	if got := doc.Without(Sid(topicARN)).String(); got != "" {
		t.Errorf("without its only statement the policy is %q, want none", got)
	}
}

func mustParse(t *testing.T, s string) Document {
	t.Helper()
	d, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
