package rdspassword

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPasswordProblem checks the passwords RDS would refuse by engine, Aurora's included, and
// that the problem never repeats the password.
func TestPasswordProblem(t *testing.T) {
	type args struct{ engine, password string }
	cases := map[string]struct {
		reason string
		args   args
		want   string
	}{
		"Fine":            {reason: "Printable ASCII of a length the engine takes is fine.", args: args{"postgres", "Correct-horse-9!"}},
		"Short":           {reason: "Every engine wants 8 characters or more.", args: args{"postgres", "Sh0rt!"}, want: "is shorter than 8 characters, the fewest RDS takes"},
		"MySQLLong":       {reason: "MySQL takes at most 41 characters.", args: args{"mysql", strings.Repeat("a", 42)}, want: "is longer than 41 characters, the most mysql takes"},
		"MariaDBLong":     {reason: "MariaDB takes at most 41 characters.", args: args{"mariadb", strings.Repeat("a", 42)}, want: "is longer than 41 characters, the most mariadb takes"},
		"PostgresLong":    {reason: "PostgreSQL takes up to 128 characters.", args: args{"postgres", strings.Repeat("a", 128)}},
		"PostgresTooLong": {reason: "PostgreSQL takes at most 128 characters.", args: args{"postgres", strings.Repeat("a", 129)}, want: "is longer than 128 characters, the most postgres takes"},
		"OracleLong":      {reason: "Oracle takes at most 30 characters.", args: args{"oracle-ee", strings.Repeat("a", 31)}, want: "is longer than 30 characters, the most oracle-ee takes"},
		"SQLServerLong":   {reason: "SQL Server takes up to 128 characters.", args: args{"sqlserver-ex", strings.Repeat("a", 128)}},
		"Slash":           {reason: "No engine takes a slash.", args: args{"mysql", "pass/word-1"}, want: "holds a character RDS refuses: use printable ASCII characters without /, \", @ or spaces"},
		"At":              {reason: "No engine takes an at sign.", args: args{"postgres", "pass@word-1"}, want: "holds a character RDS refuses: use printable ASCII characters without /, \", @ or spaces"},
		"Quote":           {reason: "No engine takes a double quote.", args: args{"postgres", `pass"word-1`}, want: "holds a character RDS refuses: use printable ASCII characters without /, \", @ or spaces"},
		"Space":           {reason: "No engine takes a space.", args: args{"postgres", "pass word-1"}, want: "holds a character RDS refuses: use printable ASCII characters without /, \", @ or spaces"},
		"NonASCII":        {reason: "Only printable ASCII is taken.", args: args{"postgres", "pässword-1"}, want: "holds a character RDS refuses: use printable ASCII characters without /, \", @ or spaces"},
		"Newline":         {reason: "A trailing newline, as a file gives, is named as such.", args: args{"postgres", "password-1\n"}, want: "holds a line break (a value written from a file often ends with one)"},
		"OracleAmpersand": {reason: "Oracle refuses an ampersand.", args: args{"oracle-se2", "pass&word-1"}, want: "holds a character RDS refuses: use printable ASCII characters without /, \", @, &, ' or spaces"},
		"MySQLAmpersand":  {reason: "Other engines take an ampersand.", args: args{"mysql", "pass&word-1"}},
		"AuroraPGFits":    {reason: "Aurora PostgreSQL takes up to 41 characters.", args: args{"aurora-postgresql", strings.Repeat("a", 41)}},
		"AuroraPGLong":    {reason: "Aurora PostgreSQL takes at most 41 characters (CreateDBCluster's reference), unlike RDS for PostgreSQL.", args: args{"aurora-postgresql", strings.Repeat("a", 42)}, want: "is longer than 41 characters, the most aurora-postgresql takes"},
		"AuroraMySQLLong": {reason: "Aurora MySQL takes at most 41 characters.", args: args{"aurora-mysql", strings.Repeat("a", 42)}, want: "is longer than 41 characters, the most aurora-mysql takes"},
		"AuroraShort":     {reason: "Aurora wants 8 characters or more.", args: args{"aurora-mysql", "Sh0rt!"}, want: "is shorter than 8 characters, the fewest RDS takes"},
		"AuroraAmpersand": {reason: "Aurora takes an ampersand.", args: args{"aurora-postgresql", "pass&word-1"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Problem(tc.args.engine, tc.args.password)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nProblem(%q, ...) -want +got:\n%s", tc.reason, tc.args.engine, diff)
			}
			if got != "" && strings.Contains(got, tc.args.password) {
				t.Errorf("%s\nthe problem %q repeats the password", tc.reason, got)
			}
		})
	}
}
