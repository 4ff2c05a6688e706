package lambdafunction

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Lambda's defaults for the settings a spec may leave unset.
const (
	defaultMemory  = 128
	defaultTimeout = 3
	defaultStorage = 512
)

// plan plans the changes of a function that accepts them. A code update and a configuration
// update each put the function InProgress, when Lambda refuses the other: the code goes
// first, the configuration at a later look. Tags, reserved concurrency and the URL change at
// any time; a new version is published once nothing else differs.
func (d *driver) plan(ctx context.Context, obs *managed.Observation[State], f *v1alpha1.LambdaFunction, out *lambda.GetFunctionOutput, tags map[string]string) error {
	name, arn := aws.ToString(out.Configuration.FunctionName), aws.ToString(out.Configuration.FunctionArn)
	obs.Changes.AddTags(tags, obs.Tags, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagResource(ctx, &lambda.TagResourceInput{Resource: aws.String(arn), Tags: set})
		return managed.Wrap(err, "tag function %s", name)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagResource(ctx, &lambda.UntagResourceInput{Resource: aws.String(arn), TagKeys: keys})
		return managed.Wrap(err, "untag function %s", name)
	}))
	c, err := d.code(ctx, f)
	if err != nil {
		return err
	}
	if fields, values := codeChanges(f, out, c); len(fields) > 0 {
		obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error { return d.updateCode(ctx, f, c) })
	} else {
		in, fields, values, err := d.configChanges(ctx, f, out.Configuration)
		if err != nil {
			return err
		}
		if len(fields) > 0 {
			obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error {
				_, err := d.api.UpdateFunctionConfiguration(ctx, in)
				return managed.Wrap(err, "update the configuration of function %s", name)
			})
		}
	}
	d.planConcurrency(&obs.Changes, f, out)
	if err := d.planURL(ctx, &obs.Changes, f, name); err != nil {
		return err
	}
	if f.Spec.Publish && len(obs.Changes) == 0 && f.Status.PublishedFrom != aws.ToString(out.Configuration.LastModified) {
		lastModified := aws.ToString(out.Configuration.LastModified)
		obs.Changes.Add("version", func(ctx context.Context) error {
			v, err := d.api.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: aws.String(name), CodeSha256: out.Configuration.CodeSha256})
			if err != nil {
				return managed.Wrap(err, "publish a version of function %s", name)
			}
			f.Status.Version, f.Status.PublishedFrom = aws.ToString(v.Version), lastModified
			return nil
		})
	}
	return nil
}

// codeChanges names what differs in the function's code, with the values the plan shows: the
// package (its source as last deployed, or its SHA-256 when the operator has the bytes) and
// the instruction set, which UpdateFunctionCode sets too.
func codeChanges(f *v1alpha1.LambdaFunction, out *lambda.GetFunctionOutput, c code) ([]string, map[string]managed.Values) {
	var fields []string
	values := map[string]managed.Values{}
	differ := func(field string, current, desired any) {
		fields = append(fields, field)
		values[field] = managed.ValuesOf(current, desired)
	}
	switch {
	case c.sha256 != "":
		if got := aws.ToString(out.Configuration.CodeSha256); c.sha256 != got {
			differ("code", got, c.sha256)
		}
	case c.image():
		var got string
		if out.Code != nil {
			got = aws.ToString(out.Code.ImageUri)
		}
		if out.Code == nil || got != aws.ToString(c.function.ImageUri) {
			differ("imageURI", got, aws.ToString(c.function.ImageUri))
		}
	case f.Status.CodeSource != c.source:
		differ("code", f.Status.CodeSource, c.source)
	}
	if want := architectures(f); !slices.Equal(out.Configuration.Architectures, want) {
		differ("architectures", append([]types.Architecture{}, out.Configuration.Architectures...), want)
	}
	return fields, values
}

// updateCode deploys the spec's package and instruction set, and records where the code came
// from.
func (d *driver) updateCode(ctx context.Context, f *v1alpha1.LambdaFunction, c code) error {
	in := &lambda.UpdateFunctionCodeInput{FunctionName: aws.String(f.Spec.FunctionName), Architectures: architectures(f),
		S3Bucket: c.function.S3Bucket, S3Key: c.function.S3Key, S3ObjectVersion: c.function.S3ObjectVersion,
		ZipFile: c.function.ZipFile, ImageUri: c.function.ImageUri}
	if _, err := d.api.UpdateFunctionCode(ctx, in); err != nil {
		return managed.Wrap(err, "update the code of function %s from %s", f.Spec.FunctionName, c.source)
	}
	f.Status.CodeSource = c.source
	return nil
}

// configChanges returns the UpdateFunctionConfiguration request that makes the function's
// configuration the spec's, the fields that differ (none: no request) and the values the plan
// shows. The environment's values are never shown: some come from Secrets.
func (d *driver) configChanges(ctx context.Context, f *v1alpha1.LambdaFunction, cfg *types.FunctionConfiguration) (*lambda.UpdateFunctionConfigurationInput, []string, map[string]managed.Values, error) {
	want, err := d.settings(ctx, f)
	if err != nil {
		return nil, nil, nil, err
	}
	in := &lambda.UpdateFunctionConfigurationInput{FunctionName: cfg.FunctionName}
	var fields []string
	values := map[string]managed.Values{}
	differ := func(field string, differs bool, set func()) {
		if differs {
			fields = append(fields, field)
			set()
		}
	}
	// differShown is differ for a field whose values, current and desired, the plan shows.
	differShown := func(field string, current, desired any, differs bool, set func()) {
		if differs {
			values[field] = managed.ValuesOf(current, desired)
		}
		differ(field, differs, set)
	}
	differShown("roleARN", aws.ToString(cfg.Role), aws.ToString(want.Role), aws.ToString(cfg.Role) != aws.ToString(want.Role), func() { in.Role = want.Role })
	differShown("runtime", cfg.Runtime, want.Runtime, cfg.Runtime != want.Runtime, func() { in.Runtime = want.Runtime })
	differShown("handler", aws.ToString(cfg.Handler), aws.ToString(want.Handler), aws.ToString(cfg.Handler) != aws.ToString(want.Handler), func() { in.Handler = want.Handler })
	differShown("memorySize", aws.ToInt32(cfg.MemorySize), aws.ToInt32(want.MemorySize), aws.ToInt32(cfg.MemorySize) != aws.ToInt32(want.MemorySize),
		func() { in.MemorySize = want.MemorySize })
	differShown("timeout", aws.ToInt32(cfg.Timeout), aws.ToInt32(want.Timeout), aws.ToInt32(cfg.Timeout) != aws.ToInt32(want.Timeout), func() { in.Timeout = want.Timeout })
	differShown("description", aws.ToString(cfg.Description), aws.ToString(want.Description), aws.ToString(cfg.Description) != aws.ToString(want.Description),
		func() { in.Description = want.Description })
	storage := int32(defaultStorage)
	if cfg.EphemeralStorage != nil {
		storage = aws.ToInt32(cfg.EphemeralStorage.Size)
	}
	differShown("ephemeralStorage", storage, aws.ToInt32(want.EphemeralStorage.Size), storage != aws.ToInt32(want.EphemeralStorage.Size),
		func() { in.EphemeralStorage = want.EphemeralStorage })
	layers := make([]string, 0, len(cfg.Layers))
	for _, l := range cfg.Layers {
		layers = append(layers, aws.ToString(l.Arn))
	}
	differShown("layers", layers, append([]string{}, want.Layers...), !slices.Equal(layers, want.Layers), func() { in.Layers = want.Layers })
	var env map[string]string
	if cfg.Environment != nil {
		env = cfg.Environment.Variables
	}
	differ("environment", !maps.Equal(env, want.Environment.Variables), func() { in.Environment = want.Environment })
	var subnets, groups []string
	if cfg.VpcConfig != nil {
		subnets, groups = cfg.VpcConfig.SubnetIds, cfg.VpcConfig.SecurityGroupIds
	}
	differShown("vpcConfig", vpcShown(subnets, groups), vpcShown(want.VpcConfig.SubnetIds, want.VpcConfig.SecurityGroupIds),
		!sameSet(subnets, want.VpcConfig.SubnetIds) || !sameSet(groups, want.VpcConfig.SecurityGroupIds), func() { in.VpcConfig = want.VpcConfig })
	var target string
	if cfg.DeadLetterConfig != nil {
		target = aws.ToString(cfg.DeadLetterConfig.TargetArn)
	}
	differShown("deadLetterConfig", target, aws.ToString(want.DeadLetterConfig.TargetArn), target != aws.ToString(want.DeadLetterConfig.TargetArn),
		func() { in.DeadLetterConfig = want.DeadLetterConfig })
	return in, fields, values, nil
}

// shownVPC is how a plan shows a function's VPC configuration: its subnets and security
// groups as sorted sets, as they are compared.
type shownVPC struct {
	SubnetIDs        []string `json:"subnetIDs"`
	SecurityGroupIDs []string `json:"securityGroupIDs"`
}

// vpcShown returns the VPC configuration of subnets and groups as a plan shows it.
func vpcShown(subnets, groups []string) shownVPC {
	set := func(ids []string) []string {
		return slices.Compact(slices.Sorted(slices.Values(append([]string{}, ids...))))
	}
	return shownVPC{SubnetIDs: set(subnets), SecurityGroupIDs: set(groups)}
}

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
