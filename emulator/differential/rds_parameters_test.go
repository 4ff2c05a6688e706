package differential

import (
	"context"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// parameterSteps is the DB parameter group sequence both sides run: a custom PostgreSQL group,
// a dynamic and a static parameter set, the changes RDS refuses, the parameters users set, and
// resets.
func parameterSteps() []step[*rds.Client] {
	ctx := context.Background()
	modify := func(group string, params ...types.Parameter) func(c *rds.Client) outcome {
		return func(c *rds.Client) outcome {
			out, err := c.ModifyDBParameterGroup(ctx, &rds.ModifyDBParameterGroupInput{DBParameterGroupName: aws.String(group), Parameters: params})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"group": aws.ToString(out.DBParameterGroupName)})
		}
	}
	param := func(name, value string, method types.ApplyMethod) types.Parameter {
		return types.Parameter{ParameterName: aws.String(name), ParameterValue: aws.String(value), ApplyMethod: method}
	}
	user := func(c *rds.Client) outcome {
		out, err := c.DescribeDBParameters(ctx, &rds.DescribeDBParametersInput{DBParameterGroupName: aws.String("diff-tuned"), Source: aws.String("user")})
		if err != nil {
			return observe(err, nil)
		}
		var got []string
		for _, p := range out.Parameters {
			got = append(got, aws.ToString(p.ParameterName)+"="+aws.ToString(p.ParameterValue)+" "+string(p.ApplyMethod))
		}
		sort.Strings(got)
		return observe(nil, map[string]string{"user": strings.Join(got, ", "), "count": strconv.Itoa(len(got))})
	}
	return []step[*rds.Client]{
		{"CreateGroup", func(c *rds.Client) outcome {
			_, err := c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("diff-tuned"),
				DBParameterGroupFamily: aws.String("postgres16"), Description: aws.String("tuned")})
			return observe(err, nil)
		}},
		{"ModifyDynamic", modify("diff-tuned", param("work_mem", "8192", types.ApplyMethodImmediate))},
		{"ModifyStatic", modify("diff-tuned", param("shared_buffers", "65536", types.ApplyMethodPendingReboot))},
		{"StaticImmediately", modify("diff-tuned", param("max_connections", "200", types.ApplyMethodImmediate))},
		{"UnknownParameter", modify("diff-tuned", param("no_such_parameter", "1", types.ApplyMethodImmediate))},
		{"DefaultGroup", modify("default.postgres16", param("work_mem", "8192", types.ApplyMethodImmediate))},
		{"MissingGroup", modify("diff-missing", param("work_mem", "8192", types.ApplyMethodImmediate))},
		{"UserParameters", user},
		{"ResetOne", func(c *rds.Client) outcome {
			_, err := c.ResetDBParameterGroup(ctx, &rds.ResetDBParameterGroupInput{DBParameterGroupName: aws.String("diff-tuned"),
				Parameters: []types.Parameter{{ParameterName: aws.String("work_mem"), ApplyMethod: types.ApplyMethodImmediate}}})
			return observe(err, nil)
		}},
		{"AfterReset", user},
	}
}

// TestParameterGroupsAgainstMoto runs the parameter group sequence against the emulator and moto.
func TestParameterGroupsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	compare(t, rds.NewFromConfig(sdkConfig(t, emu.URL)), rds.NewFromConfig(sdkConfig(t, peerURL)), "moto "+motoVersion, parameterSteps(), map[string]string{
		"StaticImmediately": "moto accepts the immediate apply method for a static parameter; AWS answers InvalidParameterCombination (cannot use " +
			"immediate apply method for static parameter)",
		"UnknownParameter": "moto accepts any parameter name; AWS answers InvalidParameterValue for a name the engine does not have",
		"DefaultGroup": "moto does not know default parameter groups; AWS answers InvalidParameterValue (Cannot modify a default " +
			"parameter group)",
		"UserParameters": "moto holds the parameters AWS refuses (see StaticImmediately, UnknownParameter)",
		"ResetOne":       "moto 5.2.1 fails ResetDBParameterGroup with an internal error",
		"AfterReset":     "moto did not reset (see ResetOne) and holds what AWS refuses",
	})
}
