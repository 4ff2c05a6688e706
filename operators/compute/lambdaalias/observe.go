package lambdaalias

import (
	"context"
	"maps"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about an alias.
type State struct {
	// Alias is GetAlias's answer.
	Alias *lambda.GetAliasOutput
}

// Observe reads the alias with one GetAlias, claims it (aliases carry no tags: only one this
// object's create made, or one named by the external-name annotation), fills the status and
// plans the differences as one UpdateAlias, each field shown with AWS's value and the spec's.
func (d *driver) Observe(ctx context.Context, a *v1alpha1.LambdaAlias, req managed.Request) (managed.Observation[State], error) {
	fn := function(a)
	if fn == "" {
		// Being deleted before its reference was ever resolved: nothing to find.
		return managed.Observation[State]{}, nil
	}
	name := a.Spec.Name
	out, err := d.api.GetAlias(ctx, &lambda.GetAliasInput{FunctionName: aws.String(fn), Name: aws.String(name)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, managed.Wrap(err, "get alias %s of function %s", name, fn)
	}
	if err := managed.Claim(a, "Lambda alias", name, nil); err != nil {
		return managed.Observation[State]{}, err
	}
	a.Status.AliasARN, a.Status.FunctionVersion, a.Status.RevisionID = aws.ToString(out.AliasArn), aws.ToString(out.FunctionVersion), aws.ToString(out.RevisionId)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Alias: out}}
	if req.Deleting {
		return obs, nil
	}
	in := &lambda.UpdateAliasInput{FunctionName: aws.String(a.Spec.FunctionName), Name: aws.String(name), RevisionId: out.RevisionId}
	var fields []string
	values := map[string]managed.Values{}
	differ := func(field string, current, desired any, differs bool, set func()) {
		if differs {
			fields = append(fields, field)
			values[field] = managed.ValuesOf(current, desired)
			set()
		}
	}
	differ("functionVersion", aws.ToString(out.FunctionVersion), a.Spec.FunctionVersion, aws.ToString(out.FunctionVersion) != a.Spec.FunctionVersion,
		func() { in.FunctionVersion = aws.String(a.Spec.FunctionVersion) })
	differ("description", aws.ToString(out.Description), a.Spec.Description, aws.ToString(out.Description) != a.Spec.Description,
		func() { in.Description = aws.String(a.Spec.Description) })
	have, want := weightsOf(out.RoutingConfig), weights(a)
	differ("routingConfig", have, want, !maps.Equal(have, want), func() {
		in.RoutingConfig = &types.AliasRoutingConfiguration{AdditionalVersionWeights: want}
	})
	obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error {
		_, err := d.api.UpdateAlias(ctx, in)
		return managed.Wrap(err, "update alias %s of function %s", name, a.Spec.FunctionName)
	})
	return obs, nil
}

// function is the function the spec names, or while the object is deleted (references are
// not resolved then) the function of the alias's recorded ARN.
func function(a *v1alpha1.LambdaAlias) string {
	if a.Spec.FunctionName != "" {
		return a.Spec.FunctionName
	}
	if arn := a.Status.AliasARN; strings.Contains(arn, ":function:") {
		return arn[:strings.LastIndex(arn, ":")]
	}
	return ""
}

// weightsOf are AWS's additional version weights.
func weightsOf(r *types.AliasRoutingConfiguration) map[string]float64 {
	out := map[string]float64{}
	if r != nil {
		maps.Copy(out, r.AdditionalVersionWeights)
	}
	return out
}

// weights are the spec's additional version weights, as numbers (admission has checked their
// form).
func weights(a *v1alpha1.LambdaAlias) map[string]float64 {
	out := map[string]float64{}
	if r := a.Spec.RoutingConfig; r != nil {
		for v, w := range r.AdditionalVersionWeights {
			if f, err := strconv.ParseFloat(w, 64); err == nil {
				out[v] = f
			}
		}
	}
	return out
}
