package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

func TestOptions(t *testing.T) {
	faults := filepath.Join(t.TempDir(), "faults.json")
	if err := os.WriteFile(faults, []byte(`{"SQS.CreateQueue": {"latency": "250ms", "throttleRate": 0.5}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		accounts, faults, token string
		want                    emulator.Options
		wantErr                 bool
	}{
		"None": {},
		"Accounts": {accounts: "AKIDA=111111111111, AKIDB=222222222222",
			want: emulator.Options{Accounts: map[string]string{"AKIDA": "111111111111", "AKIDB": "222222222222"}}},
		"ShortAccount": {accounts: "AKIDA=1111", wantErr: true},
		"NoKey":        {accounts: "=111111111111", wantErr: true},
		"Faults": {faults: faults, want: emulator.Options{Faults: map[string]emulator.Fault{
			"SQS.CreateQueue": {Latency: emulator.Duration(250 * time.Millisecond), ThrottleRate: 0.5}}}},
		"MissingFaultsFile": {faults: faults + ".missing", wantErr: true},
		"AdminToken":        {token: "s3cret", want: emulator.Options{AdminToken: "s3cret"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := options(tc.accounts, tc.faults, tc.token)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); !tc.wantErr && diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestAdminTokenFromEnvironment checks that --admin-token wins over the environment variable,
// which sets the token when the flag is empty.
func TestAdminTokenFromEnvironment(t *testing.T) {
	cases := map[string]struct {
		flag, env, want string
	}{
		"Neither":     {},
		"Flag":        {flag: "from-flag", want: "from-flag"},
		"Environment": {env: "from-env", want: "from-env"},
		"FlagWins":    {flag: "from-flag", env: "from-env", want: "from-flag"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv(adminTokenEnv, tc.env)
			if diff := cmp.Diff(tc.want, adminToken(tc.flag)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
