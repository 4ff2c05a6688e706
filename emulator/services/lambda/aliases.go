package lambda

import (
	"regexp"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// aliasName is what an alias's Name may be (API reference, CreateAlias): letters, digits, - and
// _, up to 128, and not only digits (a version number).
var (
	aliasName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)
	digits    = regexp.MustCompile(`^[0-9]+$`)
)

// aliasNotFound is Lambda's answer for an alias that does not exist.
func aliasNotFound(call *core.Call, fn, name string) *core.APIError {
	return core.NotFoundf("ResourceNotFoundException", "Alias not found: %s", call.Scope().ARN("lambda", "function:"+fn+":"+name))
}

// checkAlias checks an alias's version and routing configuration against the function: the
// version must be $LATEST or a published version; the routing configuration holds at most one
// other published version, with a weight from 0 to 1, and needs a published version, as the
// API reference says (AliasRoutingConfiguration).
func checkAlias(f *function, version string, routing *types.AliasRoutingConfiguration) error {
	if version != "$LATEST" {
		if _, ok := f.versions[version]; !ok {
			return core.NotFoundf("ResourceNotFoundException", "Function not found: %s:%s", aws.ToString(f.cfg.FunctionArn), version)
		}
	}
	if routing == nil || len(routing.AdditionalVersionWeights) == 0 {
		return nil
	}
	if len(routing.AdditionalVersionWeights) > 1 {
		return validationf("Value at 'routingConfig.additionalVersionWeights' failed to satisfy constraint: Member must have length less than or equal to 1")
	}
	if version == "$LATEST" {
		return invalidParameter("$LATEST is not supported for an alias pointing to more than 1 version")
	}
	for v, w := range routing.AdditionalVersionWeights {
		if _, ok := f.versions[v]; !ok || !digits.MatchString(v) {
			return invalidParameter("Specified version %s is not a published version of the function", v)
		}
		if v == version {
			return invalidParameter("Primary and additional version cannot be the same: %s", v)
		}
		if w < 0 || w > 1 {
			return validationf("Value '%s' at 'routingConfig.additionalVersionWeights' failed to satisfy constraint: Map value must satisfy constraint: [Member must have value less than or equal to 1.0, Member must have value greater than or equal to 0.0]",
				strconv.FormatFloat(w, 'f', -1, 64))
		}
	}
	return nil
}

// createAlias creates an alias of a function for $LATEST or a published version, with an
// optional second version and its weight; a second alias of the same name is a
// ResourceConflictException.
func (b *Backend) createAlias(call *core.Call, in *lambda.CreateAliasInput) (*lambda.CreateAliasOutput, error) {
	name := aws.ToString(in.Name)
	if !aliasName.MatchString(name) || digits.MatchString(name) {
		return nil, validationf("Value '%s' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: (?!^[0-9]+$)([a-zA-Z0-9-_]+)", name)
	}
	if in.FunctionVersion == nil {
		return nil, validationf("Value null at 'functionVersion' failed to satisfy constraint: Member must not be null")
	}
	if d := aws.ToString(in.Description); len(d) > 256 {
		return nil, validationf("Value at 'description' failed to satisfy constraint: Member must have length less than or equal to 256")
	}
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.CreateAliasOutput, error) {
		if err := checkAlias(f, aws.ToString(in.FunctionVersion), in.RoutingConfig); err != nil {
			return nil, err
		}
		if _, ok := f.aliases[name]; ok {
			return nil, conflict("Alias already exists: %s", aws.ToString(f.cfg.FunctionArn)+":"+name)
		}
		if f.aliases == nil {
			f.aliases = map[string]*types.AliasConfiguration{}
		}
		a := &types.AliasConfiguration{AliasArn: aws.String(aws.ToString(f.cfg.FunctionArn) + ":" + name), Name: aws.String(name),
			FunctionVersion: in.FunctionVersion, Description: aws.String(aws.ToString(in.Description)), RevisionId: aws.String(b.revision()),
			RoutingConfig: routingOf(in.RoutingConfig)}
		f.aliases[name] = a
		out := &lambda.CreateAliasOutput{}
		copyFields(out, *a)
		return out, nil
	})
}

// routingOf returns the routing configuration an alias keeps: none without weights.
func routingOf(r *types.AliasRoutingConfiguration) *types.AliasRoutingConfiguration {
	if r == nil || len(r.AdditionalVersionWeights) == 0 {
		return nil
	}
	w := make(map[string]float64, len(r.AdditionalVersionWeights))
	for k, v := range r.AdditionalVersionWeights {
		w[k] = v
	}
	return &types.AliasRoutingConfiguration{AdditionalVersionWeights: w}
}

// withAlias runs f on the alias a request names, holding the lock.
func withAlias[O any](b *Backend, call *core.Call, fn, name *string, f func(*function, *types.AliasConfiguration) (*O, error)) (*O, error) {
	return withUnqualified(b, call, fn, func(fun *function) (*O, error) {
		a, ok := fun.aliases[aws.ToString(name)]
		if !ok {
			return nil, aliasNotFound(call, aws.ToString(fun.cfg.FunctionName), aws.ToString(name))
		}
		return f(fun, a)
	})
}

// getAlias answers an alias.
func (b *Backend) getAlias(call *core.Call, in *lambda.GetAliasInput) (*lambda.GetAliasOutput, error) {
	return withAlias(b, call, in.FunctionName, in.Name, func(_ *function, a *types.AliasConfiguration) (*lambda.GetAliasOutput, error) {
		out := &lambda.GetAliasOutput{}
		copyFields(out, *a)
		return out, nil
	})
}

// updateAlias changes an alias's version, description or routing configuration (an empty
// AdditionalVersionWeights removes it), under its RevisionId precondition.
func (b *Backend) updateAlias(call *core.Call, in *lambda.UpdateAliasInput) (*lambda.UpdateAliasOutput, error) {
	return withAlias(b, call, in.FunctionName, in.Name, func(f *function, a *types.AliasConfiguration) (*lambda.UpdateAliasOutput, error) {
		if err := checkRevision(in.RevisionId, a.RevisionId); err != nil {
			return nil, err
		}
		version, routing := aws.ToString(a.FunctionVersion), a.RoutingConfig
		if in.FunctionVersion != nil {
			version = aws.ToString(in.FunctionVersion)
		}
		if in.RoutingConfig != nil {
			routing = routingOf(in.RoutingConfig)
		}
		if err := checkAlias(f, version, routing); err != nil {
			return nil, err
		}
		a.FunctionVersion, a.RoutingConfig, a.RevisionId = aws.String(version), routing, aws.String(b.revision())
		if in.Description != nil {
			a.Description = in.Description
		}
		out := &lambda.UpdateAliasOutput{}
		copyFields(out, *a)
		return out, nil
	})
}

// deleteAlias deletes an alias; one that does not exist is success, as on AWS (204).
func (b *Backend) deleteAlias(call *core.Call, in *lambda.DeleteAliasInput) (*lambda.DeleteAliasOutput, error) {
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.DeleteAliasOutput, error) {
		delete(f.aliases, aws.ToString(in.Name))
		return &lambda.DeleteAliasOutput{}, nil
	})
}

// listAliases lists a function's aliases by name, of one version when FunctionVersion is
// given, MaxItems (1 to 10000, default 50) at a time.
func (b *Backend) listAliases(call *core.Call, in *lambda.ListAliasesInput) (*lambda.ListAliasesOutput, error) {
	return listedOf(b, call, in.FunctionName, in.MaxItems, 50, 10000, func(f *function, size int) (*lambda.ListAliasesOutput, error) {
		var names []string
		for _, name := range core.SortedKeys(f.aliases) {
			if in.FunctionVersion == nil || aws.ToString(f.aliases[name].FunctionVersion) == aws.ToString(in.FunctionVersion) {
				names = append(names, name)
			}
		}
		list, next, err := pageOfKeys(names, in.Marker, size, func(name string) types.AliasConfiguration { return *f.aliases[name] })
		return &lambda.ListAliasesOutput{Aliases: list, NextMarker: next}, err
	})
}
