package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// userParameters returns the parameters a group's users set, value and apply method by name.
func userParameters(t *testing.T, c *rds.Client, group string) map[string]string {
	t.Helper()
	out, err := c.DescribeDBParameters(context.Background(), &rds.DescribeDBParametersInput{DBParameterGroupName: aws.String(group), Source: aws.String("user")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range out.Parameters {
		got[aws.ToString(p.ParameterName)] = aws.ToString(p.ParameterValue) + " " + string(p.ApplyMethod)
	}
	return got
}

// TestRDSParameterGroupParameters checks ModifyDBParameterGroup, DescribeDBParameters and
// ResetDBParameterGroup as AWS documents them: a default group cannot be modified, an unknown
// parameter, a value outside the allowed ones and a static parameter applied immediately are
// refused and change nothing; a static change leaves the group's instances pending-reboot until
// RebootDBInstance, a dynamic one applied immediately leaves them in sync; a reset returns the
// engine's defaults.
func TestRDSParameterGroupParameters(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	if _, err := c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("tuned"),
		DBParameterGroupFamily: aws.String("postgres17"), Description: aws.String("tuned")}); err != nil {
		t.Fatal(err)
	}
	in := postgres("tuned-db")
	in.DBParameterGroupName = aws.String("tuned")
	if _, err := c.CreateDBInstance(ctx, in); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	modify := func(group string, params ...types.Parameter) error {
		_, err := c.ModifyDBParameterGroup(ctx, &rds.ModifyDBParameterGroupInput{DBParameterGroupName: aws.String(group), Parameters: params})
		return err
	}
	param := func(name, value string, method types.ApplyMethod) types.Parameter {
		return types.Parameter{ParameterName: aws.String(name), ParameterValue: aws.String(value), ApplyMethod: method}
	}
	for _, c := range []struct {
		what, group string
		param       types.Parameter
		code        string
	}{
		{"a default group", "default.postgres17", param("work_mem", "8192", types.ApplyMethodImmediate), "InvalidParameterValue"},
		{"an unknown parameter", "tuned", param("no_such_parameter", "1", types.ApplyMethodImmediate), "InvalidParameterValue"},
		{"a value out of range", "tuned", param("work_mem", "1", types.ApplyMethodImmediate), "InvalidParameterValue"},
		{"a value not allowed", "tuned", param("log_statement", "everything", types.ApplyMethodImmediate), "InvalidParameterValue"},
		{"a static parameter applied immediately", "tuned", param("shared_buffers", "65536", types.ApplyMethodImmediate), "InvalidParameterCombination"},
		{"a missing group", "missing", param("work_mem", "8192", types.ApplyMethodImmediate), "DBParameterGroupNotFound"},
	} {
		if got := errorCode(modify(c.group, c.param)); got != c.code {
			t.Errorf("%s: %q, want %s", c.what, got, c.code)
		}
	}
	if got := userParameters(t, c, "tuned"); len(got) != 0 {
		t.Fatalf("refused changes left %v", got)
	}
	applyStatus := func() string {
		return aws.ToString(describeInstance(t, c, "tuned-db").DBParameterGroups[0].ParameterApplyStatus)
	}

	// A dynamic parameter applied at once: the instance stays in sync.
	if err := modify("tuned", param("work_mem", "8192", types.ApplyMethodImmediate), param("log_statement", "ddl", types.ApplyMethodImmediate)); err != nil {
		t.Fatal(err)
	}
	if got := applyStatus(); got != "in-sync" {
		t.Errorf("after an immediate dynamic change: %s, want in-sync", got)
	}
	// A static one: pending-reboot until the instance reboots.
	if err := modify("tuned", param("shared_buffers", "65536", types.ApplyMethodPendingReboot)); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"work_mem": "8192 immediate", "log_statement": "ddl immediate", "shared_buffers": "65536 pending-reboot"}
	if got := userParameters(t, c, "tuned"); len(got) != 3 || got["work_mem"] != want["work_mem"] || got["shared_buffers"] != want["shared_buffers"] || got["log_statement"] != want["log_statement"] {
		t.Errorf("user parameters %v, want %v", got, want)
	}
	if got := applyStatus(); got != "pending-reboot" {
		t.Errorf("after a static change: %s, want pending-reboot", got)
	}
	rebooted, err := c.RebootDBInstance(ctx, &rds.RebootDBInstanceInput{DBInstanceIdentifier: aws.String("tuned-db")})
	if err != nil || aws.ToString(rebooted.DBInstance.DBInstanceStatus) != "rebooting" {
		t.Fatalf("reboot: %v, %v", rebooted, err)
	}
	e.Clock.Advance(time.Minute)
	if got := applyStatus(); got != "in-sync" {
		t.Errorf("after the reboot: %s, want in-sync", got)
	}
	if _, err := c.RebootDBInstance(ctx, &rds.RebootDBInstanceInput{DBInstanceIdentifier: aws.String("tuned-db"), ForceFailover: aws.Bool(true)}); errorCode(err) != "InvalidParameterCombination" {
		t.Errorf("a forced failover of a Single-AZ instance: %v", err)
	}

	// The engine's defaults are listed, and a reset returns to them.
	all, err := c.DescribeDBParameters(ctx, &rds.DescribeDBParametersInput{DBParameterGroupName: aws.String("tuned"), Source: aws.String("engine-default")})
	if err != nil || len(all.Parameters) == 0 || aws.ToString(all.Parameters[0].ApplyType) == "" {
		t.Fatalf("engine defaults: %+v, %v", all, err)
	}
	if _, err := c.ResetDBParameterGroup(ctx, &rds.ResetDBParameterGroupInput{DBParameterGroupName: aws.String("tuned"),
		Parameters: []types.Parameter{{ParameterName: aws.String("work_mem"), ApplyMethod: types.ApplyMethodImmediate}}}); err != nil {
		t.Fatal(err)
	}
	if got := userParameters(t, c, "tuned"); len(got) != 2 || got["work_mem"] != "" {
		t.Errorf("after resetting work_mem: %v", got)
	}
	if _, err := c.ResetDBParameterGroup(ctx, &rds.ResetDBParameterGroupInput{DBParameterGroupName: aws.String("tuned"), ResetAllParameters: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if got := userParameters(t, c, "tuned"); len(got) != 0 {
		t.Errorf("after resetting all: %v", got)
	}
}
