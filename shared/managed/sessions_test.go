package managed

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/provider"
)

func TestSessionFor(t *testing.T) {
	refused := errors.New("refused")
	cases := map[string]struct {
		reason  string
		ctx     context.Context
		wantRef v1alpha1.ProviderReference
		wantErr error
	}{
		"OutsideAPass": {reason: "Without the engine's resolver no provider is reached.", ctx: context.Background(), wantErr: errNoSessions},
		"Resolved": {reason: "The engine's resolver gets the reference as the spec gives it.", wantRef: v1alpha1.ProviderReference{Name: "peer", Namespace: "ns"},
			ctx: WithSessions(context.Background(), func(_ context.Context, ref v1alpha1.ProviderReference) (*provider.Session, error) {
				if ref.Name != "peer" {
					return nil, refused
				}
				return &provider.Session{}, nil
			})},
		"Refused": {reason: "The resolver's refusal is returned as it is.", wantRef: v1alpha1.ProviderReference{Name: "other"}, wantErr: refused,
			ctx: WithSessions(context.Background(), func(context.Context, v1alpha1.ProviderReference) (*provider.Session, error) { return nil, refused })},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := SessionFor(tc.ctx, tc.wantRef)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("%s\nerror: got %v, want %v", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.wantErr == nil, s != nil); diff != "" {
				t.Errorf("%s\nsession returned: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
