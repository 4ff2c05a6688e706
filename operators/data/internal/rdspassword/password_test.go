package rdspassword

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProblemAurora checks the password lengths the Aurora engines take (the other engines'
// rules are checked by the RDSInstance kind's TestPasswordProblem).
func TestProblemAurora(t *testing.T) {
	type args struct{ engine, password string }
	cases := map[string]struct {
		reason string
		args   args
		want   string
	}{
		"PostgreSQLFits":  {reason: "Aurora PostgreSQL takes up to 99 characters.", args: args{"aurora-postgresql", strings.Repeat("a", 99)}},
		"PostgreSQLLong":  {reason: "Aurora PostgreSQL takes at most 99 characters, unlike RDS for PostgreSQL.", args: args{"aurora-postgresql", strings.Repeat("a", 100)}, want: "is longer than 99 characters, the most aurora-postgresql takes"},
		"MySQLLong":       {reason: "Aurora MySQL takes at most 41 characters.", args: args{"aurora-mysql", strings.Repeat("a", 42)}, want: "is longer than 41 characters, the most aurora-mysql takes"},
		"AuroraShort":     {reason: "Aurora wants 8 characters or more.", args: args{"aurora-mysql", "Sh0rt!"}, want: "is shorter than 8 characters, the fewest RDS takes"},
		"AuroraAmpersand": {reason: "Aurora takes an ampersand.", args: args{"aurora-postgresql", "pass&word-1"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Problem(tc.args.engine, tc.args.password)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nProblem(%q, ...) -want +got:\n%s", tc.reason, tc.args.engine, diff)
			}
		})
	}
}
