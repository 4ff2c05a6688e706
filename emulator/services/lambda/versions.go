package lambda

import (
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// version is a published version: a snapshot of $LATEST's code and configuration that does not
// change, numbered 1, 2, 3 and on.
type version struct {
	// cfg is the version's configuration, under its qualified ARN.
	cfg types.FunctionConfiguration
	// code is its deployment package.
	code types.FunctionCode
	// revision is the revision of $LATEST it was published from.
	revision int
	// until is when its creation ends (Pending -> Active).
	until time.Time
}

// publish publishes $LATEST as the function's next version, with description instead of the
// function's when given, and returns it. When nothing changed in $LATEST's code or
// configuration since the last version, it returns that version instead, as Lambda does. The
// caller holds the backend's lock.
func (b *Backend) publish(call *core.Call, f *function, description *string) *version {
	if last, ok := f.versions[strconv.Itoa(f.lastVersion)]; ok && last.revision == f.revision {
		return last
	}
	f.lastVersion++
	number := strconv.Itoa(f.lastVersion)
	cfg := f.cfg
	cfg.Version = aws.String(number)
	cfg.FunctionArn = aws.String(aws.ToString(f.cfg.FunctionArn) + ":" + number)
	cfg.LastModified = aws.String(lastModified(call.Now))
	cfg.RevisionId = aws.String(b.revision())
	cfg.State, cfg.StateReason, cfg.StateReasonCode = types.StatePending, aws.String("The function is being created."), types.StateReasonCodeCreating
	cfg.LastUpdateStatus, cfg.LastUpdateStatusReason, cfg.LastUpdateStatusReasonCode = types.LastUpdateStatusSuccessful, nil, ""
	if description != nil {
		cfg.Description = description
	}
	v := &version{cfg: cfg, code: f.code, revision: f.revision, until: call.Now.Add(call.Transition)}
	f.versions[number] = v
	// Publishing changes the function's RevisionId too.
	f.cfg.RevisionId = aws.String(b.revision())
	return v
}

// publishVersion publishes the function's current code and configuration as a version, under
// the RevisionId and CodeSha256 preconditions the request may set; Lambda refuses while the
// function is being created or updated.
func (b *Backend) publishVersion(call *core.Call, in *lambda.PublishVersionInput) (*lambda.PublishVersionOutput, error) {
	if in.Description != nil && len(*in.Description) > 256 {
		return nil, validationf("Value '%s' at 'description' failed to satisfy constraint: Member must have length less than or equal to 256", *in.Description)
	}
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.PublishVersionOutput, error) {
		if err := checkRevision(in.RevisionId, f.cfg.RevisionId); err != nil {
			return nil, err
		}
		if in.CodeSha256 != nil && *in.CodeSha256 != aws.ToString(f.cfg.CodeSha256) {
			return nil, invalidParameter("CodeSHA256 (%s) is different from current CodeSHA256 in $LATEST (%s). Please try again with the CodeSHA256 in $LATEST.",
				*in.CodeSha256, aws.ToString(f.cfg.CodeSha256))
		}
		if err := f.checkIdle(); err != nil {
			return nil, err
		}
		out := &lambda.PublishVersionOutput{}
		copyFields(out, b.publish(call, f, in.Description).cfg)
		return out, nil
	})
}

// listVersionsByFunction lists $LATEST (under its qualified ARN) and then the published
// versions in order, MaxItems (1 to 10000, default 50) at a time.
func (b *Backend) listVersionsByFunction(call *core.Call, in *lambda.ListVersionsByFunctionInput) (*lambda.ListVersionsByFunctionOutput, error) {
	return listedOf(b, call, in.FunctionName, in.MaxItems, 50, 10000, func(f *function, size int) (*lambda.ListVersionsByFunctionOutput, error) {
		latest := f.cfg
		latest.FunctionArn = aws.String(aws.ToString(f.cfg.FunctionArn) + ":$LATEST")
		all := []types.FunctionConfiguration{latest}
		numbers := make([]int, 0, len(f.versions))
		for n := range f.versions {
			i, _ := strconv.Atoi(n)
			numbers = append(numbers, i)
		}
		slices.Sort(numbers)
		for _, n := range numbers {
			all = append(all, f.versions[strconv.Itoa(n)].cfg)
		}
		page, next, err := pageOf(all, in.Marker, size)
		if err != nil {
			return nil, err
		}
		return &lambda.ListVersionsByFunctionOutput{Versions: page, NextMarker: next}, nil
	})
}
