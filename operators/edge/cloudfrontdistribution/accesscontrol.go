package cloudfrontdistribution

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// maxControlName is the longest name CloudFront gives an origin access control.
const maxControlName = 64

// controlDescription begins the description of every origin access control the operator makes;
// the object's UID follows. Origin access controls carry no tags: the name and this
// description say whose one is.
const controlDescription = "Origin access control of the infra-operator CloudFrontDistribution with UID "

// accessControl is the distribution's origin access control as CloudFront reports it.
type accessControl struct {
	// ID is the origin access control's id.
	ID string
	// ETag is the version of its configuration, which a change or deletion names.
	ETag string
	// Config is its configuration.
	Config *types.OriginAccessControlConfig
}

// hasS3Origin reports whether the spec has an origin by S3Bucket reference.
func hasS3Origin(d *v1alpha1.CloudFrontDistribution) bool {
	for _, o := range d.Spec.Origins {
		if o.S3BucketRef != nil {
			return true
		}
	}
	return false
}

// controlName returns the name of the object's origin access control: its namespace and name,
// cut to fit CloudFront's 64 characters, and a hash of its UID, so that objects of the same
// name in two clusters of one account, or one deleted and made again, never share one.
func controlName(d *v1alpha1.CloudFrontDistribution) string {
	sum := sha256.Sum256([]byte(d.GetUID()))
	suffix := "-" + hex.EncodeToString(sum[:4])
	base := d.GetNamespace() + "-" + d.GetName()
	if len(base) > maxControlName-len(suffix) {
		base = base[:maxControlName-len(suffix)]
	}
	return base + suffix
}

// controlConfig returns the configuration of the object's origin access control: for S3
// origins, every request signed with SigV4.
func controlConfig(d *v1alpha1.CloudFrontDistribution) *types.OriginAccessControlConfig {
	return &types.OriginAccessControlConfig{
		Name:                          aws.String(controlName(d)),
		Description:                   aws.String(controlDescription + string(d.GetUID())),
		OriginAccessControlOriginType: types.OriginAccessControlOriginTypesS3,
		SigningBehavior:               types.OriginAccessControlSigningBehaviorsAlways,
		SigningProtocol:               types.OriginAccessControlSigningProtocolsSigv4,
	}
}

// ours reports whether an origin access control is the object's: its name and description
// are those want gives.
func ours(want, got *types.OriginAccessControlConfig) bool {
	return got != nil && aws.ToString(got.Name) == aws.ToString(want.Name) && aws.ToString(got.Description) == aws.ToString(want.Description)
}

// sameControl reports whether an origin access control's configuration is the one the object
// wants.
func sameControl(want, got *types.OriginAccessControlConfig) bool {
	return ours(want, got) && got.OriginAccessControlOriginType == want.OriginAccessControlOriginType && got.SigningBehavior == want.SigningBehavior &&
		got.SigningProtocol == want.SigningProtocol
}

// findControl returns the object's origin access control, nil when it has none: the one the
// status names (so that a change made outside, even of its name, is restored), else (the
// status lost, or a create whose answer was lost) the one with the object's name and
// description, found in the account's list.
func (d *driver) findControl(ctx context.Context, o *v1alpha1.CloudFrontDistribution) (*accessControl, error) {
	if id := o.Status.OriginAccessControlID; id != "" {
		c, err := d.getControl(ctx, id)
		if err != nil || c != nil {
			return c, err
		}
	}
	want := controlConfig(o)
	var marker *string
	for {
		page, err := d.api.ListOriginAccessControls(ctx, &cloudfront.ListOriginAccessControlsInput{Marker: marker})
		if err != nil {
			return nil, managed.Wrap(err, "list the origin access controls")
		}
		if page.OriginAccessControlList == nil {
			return nil, nil
		}
		for _, s := range page.OriginAccessControlList.Items {
			if ours(want, &types.OriginAccessControlConfig{Name: s.Name, Description: s.Description}) {
				return d.getControl(ctx, aws.ToString(s.Id))
			}
		}
		if marker = page.OriginAccessControlList.NextMarker; aws.ToString(marker) == "" {
			return nil, nil
		}
	}
}

// getControl reads the origin access control id; nil when it does not exist.
func (d *driver) getControl(ctx context.Context, id string) (*accessControl, error) {
	out, err := d.api.GetOriginAccessControl(ctx, &cloudfront.GetOriginAccessControlInput{Id: aws.String(id)})
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, managed.Wrap(err, "get origin access control %s", id)
	}
	return &accessControl{ID: aws.ToString(out.OriginAccessControl.Id), ETag: aws.ToString(out.ETag), Config: out.OriginAccessControl.OriginAccessControlConfig}, nil
}

// createControl makes the object's origin access control and records its id in the status.
// Names are unique in an account: a create whose answer was lost and that is made again is
// refused, and the control it made is found by its name instead.
func (d *driver) createControl(ctx context.Context, o *v1alpha1.CloudFrontDistribution) (string, error) {
	out, err := d.api.CreateOriginAccessControl(ctx, &cloudfront.CreateOriginAccessControlInput{OriginAccessControlConfig: controlConfig(o)})
	if err == nil {
		o.Status.OriginAccessControlID = aws.ToString(out.OriginAccessControl.Id)
		return o.Status.OriginAccessControlID, nil
	}
	if awserr.Code(err) != "OriginAccessControlAlreadyExists" {
		return "", managed.Wrap(err, "create origin access control %s", controlName(o))
	}
	c, findErr := d.findControl(ctx, o)
	if findErr != nil {
		return "", findErr
	}
	if c == nil {
		return "", fmt.Errorf("create origin access control %s: the name is taken by a control this object did not make "+
			"(its description does not name the object's UID): rename or delete it: %w", controlName(o), err)
	}
	o.Status.OriginAccessControlID = c.ID
	return c.ID, nil
}

// ensureControl returns the id of the object's origin access control, made when it has none.
func (d *driver) ensureControl(ctx context.Context, o *v1alpha1.CloudFrontDistribution) (string, error) {
	c, err := d.findControl(ctx, o)
	if err != nil {
		return "", err
	}
	if c == nil {
		return d.createControl(ctx, o)
	}
	o.Status.OriginAccessControlID = c.ID
	return c.ID, nil
}

// updateControl restores the configuration of origin access control c, changed outside.
func (d *driver) updateControl(ctx context.Context, o *v1alpha1.CloudFrontDistribution, c *accessControl) error {
	_, err := d.api.UpdateOriginAccessControl(ctx, &cloudfront.UpdateOriginAccessControlInput{Id: aws.String(c.ID), IfMatch: aws.String(c.ETag),
		OriginAccessControlConfig: controlConfig(o)})
	return managed.Wrap(err, "update origin access control %s", c.ID)
}

// deleteControl deletes origin access control c; one already gone is deleted.
func (d *driver) deleteControl(ctx context.Context, c *accessControl) error {
	_, err := d.api.DeleteOriginAccessControl(ctx, &cloudfront.DeleteOriginAccessControlInput{Id: aws.String(c.ID), IfMatch: aws.String(c.ETag)})
	if err == nil || awserr.IsNotFound(err) {
		return nil
	}
	return managed.Wrap(err, "delete origin access control %s", c.ID)
}
