package ekscluster

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// recordingAPI is an api that records the UpdateClusterConfig calls a plan makes.
type recordingAPI struct {
	api
	updates []*eks.UpdateClusterConfigInput
}

// UpdateClusterConfig records in.
func (r *recordingAPI) UpdateClusterConfig(_ context.Context, in *eks.UpdateClusterConfigInput, _ ...func(*eks.Options)) (*eks.UpdateClusterConfigOutput, error) {
	r.updates = append(r.updates, in)
	return &eks.UpdateClusterConfigOutput{}, nil
}

// TestPlanAuthenticationMode checks that the authentication mode moves forward one step per
// update, shown with the cluster's mode and the spec's, that an unset mode leaves the cluster's
// alone, and that a cluster whose mode is later than the spec's is a conflict.
func TestPlanAuthenticationMode(t *testing.T) {
	type want struct {
		values   map[string]managed.Values
		sent     types.AuthenticationMode
		conflict bool
	}
	cases := map[string]struct {
		reason string
		have   types.AuthenticationMode
		spec   *v1alpha1.EKSAccessConfig
		want   want
	}{
		"Unset": {
			reason: "A spec without a mode leaves the cluster's as it is.",
			have:   types.AuthenticationModeConfigMap,
		},
		"Same": {
			reason: "The spec's mode: nothing to do.",
			have:   types.AuthenticationModeApi,
			spec:   &v1alpha1.EKSAccessConfig{AuthenticationMode: "API"},
		},
		"OneStep": {
			reason: "API_AND_CONFIG_MAP to API is one update.",
			have:   types.AuthenticationModeApiAndConfigMap,
			spec:   &v1alpha1.EKSAccessConfig{AuthenticationMode: "API"},
			want: want{values: map[string]managed.Values{"accessConfig.authenticationMode": {Current: "API_AND_CONFIG_MAP", Desired: "API"}},
				sent: types.AuthenticationModeApi},
		},
		"TwoSteps": {
			reason: "CONFIG_MAP to API goes through API_AND_CONFIG_MAP first; the plan shows the spec's mode.",
			have:   types.AuthenticationModeConfigMap,
			spec:   &v1alpha1.EKSAccessConfig{AuthenticationMode: "API"},
			want: want{values: map[string]managed.Values{"accessConfig.authenticationMode": {Current: "CONFIG_MAP", Desired: "API"}},
				sent: types.AuthenticationModeApiAndConfigMap},
		},
		"Backward": {
			reason: "A cluster on API cannot go back to CONFIG_MAP: a conflict, nothing planned.",
			have:   types.AuthenticationModeApi,
			spec:   &v1alpha1.EKSAccessConfig{AuthenticationMode: "CONFIG_MAP"},
			want:   want{conflict: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := activeCluster()
			c.AccessConfig = &types.AccessConfigResponse{AuthenticationMode: tc.have}
			rec := &recordingAPI{}
			obs := managed.Observation[State]{Exists: true, State: &State{Cluster: c}}
			(&driver{api: rec}).plan(&obs, spec(func(s *v1alpha1.EKSClusterSpec) { s.AccessConfig = tc.spec }), nil)
			got := want{conflict: obs.Conflict != nil}
			if len(obs.Changes) > 0 {
				got.values = obs.Changes[0].Values
				if err := obs.Changes.Apply(context.Background()); err != nil {
					t.Fatal(err)
				}
				got.sent = rec.updates[0].AccessConfig.AuthenticationMode
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nplan: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
