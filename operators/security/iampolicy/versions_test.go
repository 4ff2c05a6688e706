package iampolicy

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/google/go-cmp/cmp"
)

func TestOldestNonDefault(t *testing.T) {
	at := func(min int) *time.Time { return aws.Time(time.Date(2026, 1, 1, 0, min, 0, 0, time.UTC)) }
	v := func(id string, min int, def bool) types.PolicyVersion {
		return types.PolicyVersion{VersionId: aws.String(id), CreateDate: at(min), IsDefaultVersion: def}
	}
	cases := map[string]struct {
		reason string
		args   []types.PolicyVersion
		want   string
	}{
		"Oldest": {
			reason: "The oldest version that is not the default goes, whatever the listing's order.",
			args:   []types.PolicyVersion{v("v5", 5, false), v("v4", 4, true), v("v3", 3, false), v("v2", 2, false), v("v6", 6, false)},
			want:   "v2",
		},
		"DefaultIsOldest": {
			reason: "The default version is kept even when it is the oldest.",
			args:   []types.PolicyVersion{v("v1", 1, true), v("v3", 3, false), v("v2", 2, false)},
			want:   "v2",
		},
		"SameTime": {
			reason: "Versions made in the same second are ordered by number (v10 after v9).",
			args:   []types.PolicyVersion{v("v10", 1, false), v("v9", 1, false), v("v11", 1, true)},
			want:   "v9",
		},
		"OnlyDefault": {
			reason: "A policy with its default version only has none to delete.",
			args:   []types.PolicyVersion{v("v1", 1, true)},
			want:   "",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, oldestNonDefault(tc.args)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
