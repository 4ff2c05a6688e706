package cloudfront

import (
	"slices"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Limits of an origin access control's name and description, in characters.
const (
	maxControlName        = 64
	maxControlDescription = 256
)

// accessControl is one origin access control: how CloudFront signs its requests to an origin.
type accessControl struct {
	id     string
	etag   string
	config *types.OriginAccessControlConfig
}

// view returns the origin access control as the API answers it.
func (c *accessControl) view() *types.OriginAccessControl {
	return &types.OriginAccessControl{Id: aws.String(c.id), OriginAccessControlConfig: clone(c.config)}
}

// currentETag returns the origin access control's current ETag.
func (c *accessControl) currentETag() string { return c.etag }

// noSuchAccessControl is the answer to an origin access control id the account does not have.
func noSuchAccessControl() error {
	return notFound("NoSuchOriginAccessControl", "The origin access control does not exist.")
}

// validateControl checks an origin access control configuration: a name of 1 to 64 characters
// that no other control of the account (other than self) has, a description of at most 256,
// SigV4 signing, and a signing behaviour and origin type CloudFront knows.
func validateControl(a *account, self string, c *types.OriginAccessControlConfig) error {
	if c == nil {
		return invalidArgument("The parameter OriginAccessControlConfig is required.")
	}
	name := aws.ToString(c.Name)
	if n := utf8.RuneCountInString(name); n == 0 || n > maxControlName {
		return invalidArgument("The parameter Name must be between 1 and %d characters.", maxControlName)
	}
	if utf8.RuneCountInString(aws.ToString(c.Description)) > maxControlDescription {
		return invalidArgument("The parameter Description must be at most %d characters.", maxControlDescription)
	}
	if c.SigningProtocol != types.OriginAccessControlSigningProtocolsSigv4 {
		return invalidArgument("The parameter SigningProtocol has an invalid value: %q.", c.SigningProtocol)
	}
	if !slices.Contains(types.OriginAccessControlSigningBehaviors("").Values(), c.SigningBehavior) {
		return invalidArgument("The parameter SigningBehavior has an invalid value: %q.", c.SigningBehavior)
	}
	if !slices.Contains(types.OriginAccessControlOriginTypes("").Values(), c.OriginAccessControlOriginType) {
		return invalidArgument("The parameter OriginAccessControlOriginType has an invalid value: %q.", c.OriginAccessControlOriginType)
	}
	for id, other := range a.controls {
		if id != self && aws.ToString(other.config.Name) == name {
			return conflict("OriginAccessControlAlreadyExists", "An origin access control with the same name already exists: %s.", id)
		}
	}
	return nil
}

// control returns an origin access control of the account. The caller holds the backend's mutex.
func (a *account) control(id *string) (*accessControl, error) {
	c, ok := a.controls[aws.ToString(id)]
	if !ok {
		return nil, noSuchAccessControl()
	}
	return c, nil
}

// createOriginAccessControl creates an origin access control.
func (b *Backend) createOriginAccessControl(call *core.Call, in *cloudfront.CreateOriginAccessControlInput) (*cloudfront.CreateOriginAccessControlOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*cloudfront.CreateOriginAccessControlOutput, error) {
		if err := validateControl(a, "", in.OriginAccessControlConfig); err != nil {
			return nil, err
		}
		c := &accessControl{id: newID(), etag: newETag(), config: withDescription(in.OriginAccessControlConfig)}
		a.controls[c.id] = c
		return &cloudfront.CreateOriginAccessControlOutput{OriginAccessControl: c.view(), ETag: aws.String(c.etag),
			Location: aws.String("https://cloudfront.amazonaws.com/2020-05-31/origin-access-control/" + c.id)}, nil
	})
}

// withDescription returns a copy of an origin access control configuration with an empty
// description when it has none, as AWS answers it.
func withDescription(c *types.OriginAccessControlConfig) *types.OriginAccessControlConfig {
	out := clone(c)
	if out.Description == nil {
		out.Description = aws.String("")
	}
	return out
}

// getOriginAccessControl returns an origin access control and its ETag.
func (b *Backend) getOriginAccessControl(call *core.Call, in *cloudfront.GetOriginAccessControlInput) (*cloudfront.GetOriginAccessControlOutput, error) {
	return withFound(b, call, in.Id, (*account).control, func(_ *account, c *accessControl) (*cloudfront.GetOriginAccessControlOutput, error) {
		return &cloudfront.GetOriginAccessControlOutput{OriginAccessControl: c.view(), ETag: aws.String(c.etag)}, nil
	})
}

// updateOriginAccessControl replaces an origin access control's configuration, given its
// current ETag.
func (b *Backend) updateOriginAccessControl(call *core.Call, in *cloudfront.UpdateOriginAccessControlInput) (*cloudfront.UpdateOriginAccessControlOutput, error) {
	return withMatched(b, call, in.Id, in.IfMatch, (*account).control, func(a *account, c *accessControl) (*cloudfront.UpdateOriginAccessControlOutput, error) {
		if err := validateControl(a, c.id, in.OriginAccessControlConfig); err != nil {
			return nil, err
		}
		c.config, c.etag = withDescription(in.OriginAccessControlConfig), newETag()
		return &cloudfront.UpdateOriginAccessControlOutput{OriginAccessControl: c.view(), ETag: aws.String(c.etag)}, nil
	})
}

// deleteOriginAccessControl deletes an origin access control, given its current ETag, unless a
// distribution's origin uses it.
func (b *Backend) deleteOriginAccessControl(call *core.Call, in *cloudfront.DeleteOriginAccessControlInput) (*cloudfront.DeleteOriginAccessControlOutput, error) {
	return withMatched(b, call, in.Id, in.IfMatch, (*account).control, func(a *account, c *accessControl) (*cloudfront.DeleteOriginAccessControlOutput, error) {
		for _, d := range a.distributions {
			for _, o := range d.config.Origins.Items {
				if aws.ToString(o.OriginAccessControlId) == c.id {
					return nil, conflict("OriginAccessControlInUse", "Cannot delete the origin access control because it's in use by one or more distributions: %s.", d.id)
				}
			}
		}
		delete(a.controls, c.id)
		return &cloudfront.DeleteOriginAccessControlOutput{}, nil
	})
}

// listOriginAccessControls lists the account's origin access controls in id order, a page at a
// time.
func (b *Backend) listOriginAccessControls(call *core.Call, in *cloudfront.ListOriginAccessControlsInput) (*cloudfront.ListOriginAccessControlsOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*cloudfront.ListOriginAccessControlsOutput, error) {
		list := listPage[types.OriginAccessControlList](byID(a.controls), func(c *accessControl) string { return c.id }, in.Marker, in.MaxItems,
			func(c *accessControl) types.OriginAccessControlSummary {
				return types.OriginAccessControlSummary{Id: aws.String(c.id), Name: c.config.Name,
					Description: aws.String(aws.ToString(c.config.Description)), SigningProtocol: c.config.SigningProtocol,
					SigningBehavior: c.config.SigningBehavior, OriginAccessControlOriginType: c.config.OriginAccessControlOriginType}
			})
		return &cloudfront.ListOriginAccessControlsOutput{OriginAccessControlList: list}, nil
	})
}
