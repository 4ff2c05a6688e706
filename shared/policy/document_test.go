package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	ownerPolicy = `{"Version":"2012-10-17","Statement":{"Sid":"Owner","Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"}}`
	grantSid    = ReservedSidPrefix + "Test1"
)

// grant is a statement another writer keeps, with a reserved Sid.
var grant = map[string]any{"Sid": grantSid, "Effect": "Allow", "Principal": map[string]any{"Service": "sns.amazonaws.com"},
	"Action": "sqs:SendMessage", "Resource": "arn:aws:sqs:us-east-1:123456789012:inbox"}

// TestMerge checks the policy a resource should have: the owner's statements and the reserved
// ones.
func TestMerge(t *testing.T) {
	withGrant := mustParse(t, ownerPolicy).With(grant)
	cases := map[string]struct {
		reason   string
		owner    string
		observed Document
		want     string
	}{
		"Empty": {
			reason:   "No owner policy and no reserved statements is no policy.",
			observed: Document{},
			want:     "",
		},
		"OwnerOnly": {
			reason:   "The owner's policy is kept as it is.",
			owner:    ownerPolicy,
			observed: Document{},
			want:     `{"Statement":[{"Action":"sqs:*","Effect":"Allow","Principal":"*","Resource":"*","Sid":"Owner"}],"Version":"2012-10-17"}`,
		},
		"ReservedKept": {
			reason:   "A reserved statement stays when the owner removes the policy.",
			observed: withGrant,
			want: `{"Statement":[{"Action":"sqs:SendMessage","Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},` +
				`"Resource":"arn:aws:sqs:us-east-1:123456789012:inbox","Sid":"` + grantSid + `"}],"Version":"2012-10-17"}`,
		},
		"OwnerReservedDropped": {
			reason:   "A statement with a reserved Sid in the owner's document is not the owner's to keep.",
			owner:    `{"Statement":[{"Sid":"` + grantSid + `","Effect":"Deny"}]}`,
			observed: Document{},
			want:     "",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Merge(mustParse(t, tc.owner), ReservedSidPrefix, tc.observed.Reserved(ReservedSidPrefix)).String()
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
		"ObjectOrList": {reason: "A single statement equals a list of one.", a: ownerPolicy,
			b: `{"Version":"2012-10-17","Statement":[{"Sid":"Owner","Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"}]}`, want: true},
		"Order": {reason: "Statement order does not matter.",
			a: `{"Statement":[{"Sid":"A"},{"Sid":"B"}]}`, b: `{"Statement":[{"Sid":"B"},{"Sid":"A"}]}`, want: true},
		"Differs": {reason: "Another action differs.", a: ownerPolicy,
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

// TestWithAndWithout checks that a statement is added once, replaced by Sid, found by meaning,
// and that removing the last statement leaves no policy.
func TestWithAndWithout(t *testing.T) {
	doc := Document{}.With(grant).With(grant)
	if len(doc.Statements) != 1 {
		t.Fatalf("the statement added twice is held %d times, want once: %s", len(doc.Statements), doc)
	}
	listed := map[string]any{"Sid": grantSid, "Effect": "Allow", "Principal": map[string]any{"Service": []any{"sns.amazonaws.com"}},
		"Action": []any{"sqs:SendMessage"}, "Resource": "arn:aws:sqs:us-east-1:123456789012:inbox"}
	if !doc.Has(listed) {
		t.Errorf("Has does not find the statement written with lists of one: %s", doc)
	}
	if doc.Has(map[string]any{"Sid": grantSid, "Effect": "Deny"}) {
		t.Errorf("Has finds another statement of the same Sid: %s", doc)
	}
	if got := doc.Without(grantSid).String(); got != "" {
		t.Errorf("without its only statement the policy is %q, want none", got)
	}
	kept := mustParse(t, ownerPolicy).With(grant).Without(grantSid)
	if !Equal(kept, mustParse(t, ownerPolicy)) {
		t.Errorf("removing the reserved statement changed the owner's: %s", kept)
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
