package sandbox

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEmulatorAdminToken checks that the sandbox's emulator guards its admin endpoints with the
// token the sandbox holds, that two sandboxes get different tokens, and that the sandbox's own
// AWS calls (the baseline) are not affected.
func TestEmulatorAdminToken(t *testing.T) {
	s := &Sandbox{}
	if err := s.startEmulator("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	other := &Sandbox{}
	if err := other.startEmulator("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Stop() })
	if s.EmulatorAdminToken == "" || s.EmulatorAdminToken == other.EmulatorAdminToken {
		t.Errorf("admin tokens %q and %q, want two different random ones", s.EmulatorAdminToken, other.EmulatorAdminToken)
	}
	if _, err := seedBaseline(context.Background(), s.EmulatorURL, "us-east-1"); err != nil {
		t.Errorf("the baseline's AWS calls with an admin token set: %v", err)
	}

	cases := map[string]struct {
		reason        string
		authorization string
		want          int
	}{
		"SandboxToken": {reason: "The sandbox's token opens the admin endpoints.", authorization: "Bearer " + s.EmulatorAdminToken, want: http.StatusOK},
		"NoToken":      {reason: "Without a token the admin endpoints are closed.", want: http.StatusUnauthorized},
		"OtherToken":   {reason: "Another sandbox's token is refused.", authorization: "Bearer " + other.EmulatorAdminToken, want: http.StatusForbidden},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, s.EmulatorURL+"/_emulator/calls", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.authorization != "" {
				req.Header.Set("Authorization", tc.authorization)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if diff := cmp.Diff(tc.want, resp.StatusCode); diff != "" {
				t.Errorf("%s\nstatus (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
