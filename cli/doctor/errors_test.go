package doctor

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestCapped checks that a check writes at most maxRows rows about objects, then one summary
// row that fails when any row it stands for fails.
func TestCapped(t *testing.T) {
	rows := make([]Row, maxRows+3)
	for i := range rows {
		rows[i] = warn(CheckStuck, "o", "d", "f")
	}
	rows[maxRows+1].Status = Fail
	got := capped(CheckStuck, "objects", "see all", rows)
	if len(got) != maxRows+1 {
		t.Fatalf("%d rows, want %d", len(got), maxRows+1)
	}
	want := Row{Check: CheckStuck, Object: "...", Status: Fail, Detail: "3 more objects like the above", Fix: "see all"}
	if diff := cmp.Diff(want, got[maxRows]); diff != "" {
		t.Errorf("summary row -want +got:\n%s", diff)
	}
	if short := capped(CheckStuck, "objects", "see all", rows[:2]); len(short) != 2 {
		t.Errorf("%d rows of 2 kept", len(short))
	}
}

// TestCannotCheck checks the row of a check the cluster did not let run, for each way it can
// fail.
func TestCannotCheck(t *testing.T) {
	cases := map[string]struct {
		err  error
		want string
	}{
		"NoCRD":     {err: &meta.NoKindMatchError{GroupKind: schema.GroupKind{Group: "aws-infra-operator.runner.codes", Kind: "AWSProvider"}}, want: "cannot check: list AWSProviders: its CRD is not installed"},
		"Forbidden": {err: apierrors.NewForbidden(schema.GroupResource{Resource: "awsproviders"}, "", errors.New("no")), want: "cannot check: you may not list AWSProviders"},
		"Timeout":   {err: fmt.Errorf("list: %w", context.DeadlineExceeded), want: "cannot check: list AWSProviders timed out"},
		"Other":     {err: errors.New("connection reset"), want: "cannot check: list AWSProviders: connection reset"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := cannotCheck(CheckProvider, "AWSProvider", "list AWSProviders", tc.err)
			if got.Status != Fail || got.Detail != tc.want || got.Fix == "" {
				t.Errorf("row %+v, want a fail row with detail %q and a fix", got, tc.want)
			}
		})
	}
}
