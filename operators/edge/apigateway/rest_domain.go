package apigateway

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// restNoBasePath is how API Gateway names the empty base path, which maps a domain's root.
const restNoBasePath = "(none)"

// restDomainName returns the spec's custom domain name as API Gateway keeps it (in lower case), ""
// when the spec has none.
func restDomainName(o *v1alpha1.APIGateway) string {
	if o.Spec.CustomDomain == nil {
		return ""
	}
	return strings.ToLower(o.Spec.CustomDomain.DomainName)
}

// ownedRESTDomain reads the custom domain name name and returns it when its ownership tags name o;
// nil when it does not exist. A domain name of another owner is returned with taken true and is
// never changed or deleted.
func (d *restDriver) ownedRESTDomain(ctx context.Context, o *v1alpha1.APIGateway, name string) (dom *types.DomainName, taken bool, err error) {
	out, err := d.rest.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: aws.String(name)})
	if awserr.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, managed.Wrap(err, "get custom domain name %s", name)
	}
	if !managed.OwnedBy(o, out.Tags) {
		return nil, true, nil
	}
	dom = &types.DomainName{}
	dom.DomainName, dom.DomainNameArn, dom.Tags = out.DomainName, out.DomainNameArn, out.Tags
	dom.RegionalCertificateArn, dom.RegionalDomainName, dom.RegionalHostedZoneId = out.RegionalCertificateArn, out.RegionalDomainName, out.RegionalHostedZoneId
	return dom, false, nil
}

// readRESTDomain finds the custom domain name the object owns: the spec's, or, when the spec no
// longer names it, the one the status records, so that it is deleted. A domain name of the spec
// that another owner holds is reported as a conflict (DomainNameTaken).
func (d *restDriver) readRESTDomain(ctx context.Context, o *v1alpha1.APIGateway, obs *managed.Observation[State]) error {
	name := restDomainName(o)
	if name == "" && o.Status.CustomDomain != nil {
		name = o.Status.CustomDomain.DomainName
	}
	if name == "" {
		return nil
	}
	dom, taken, err := d.ownedRESTDomain(ctx, o, name)
	if err != nil {
		return err
	}
	if taken && name == restDomainName(o) {
		obs.Conflict = managed.Terminal(condition.ReasonDomainNameTaken,
			"custom domain name %s exists in API Gateway and is not this object's (its ownership tags name another owner, or none): choose another spec.customDomain.domainName, or delete the domain name in API Gateway",
			name)
	}
	obs.State.REST.Domain = dom
	if dom == nil {
		o.Status.CustomDomain = nil
	}
	return nil
}

// planRESTDomain plans the custom domain name ("customDomain"): created (regional, TLS 1.2, with the
// certificate and the tags) with the base path mapping of the spec's stage when missing, its
// certificate updated when it differs, its mapping put back when it differs, and the domain
// deleted when the spec no longer names it. It fills status.customDomain and reports whether
// the domain serves the spec's stage.
func (d *restDriver) planRESTDomain(ctx context.Context, o *v1alpha1.APIGateway, api string, tags map[string]string, obs *managed.Observation[State]) (bool, error) {
	dom, spec := obs.State.REST.Domain, o.Spec.CustomDomain
	if spec == nil {
		if dom != nil {
			name := aws.ToString(dom.DomainName)
			obs.Changes.Add("customDomain", func(ctx context.Context) error {
				if err := d.deleteRESTDomain(ctx, name); err != nil {
					return err
				}
				o.Status.CustomDomain = nil
				return nil
			})
		}
		return true, nil
	}
	if obs.Conflict != nil {
		return false, nil
	}
	name, stage, base := restDomainName(o), spec.Stage, spec.BasePath
	if stage == "" {
		stage = o.Spec.Stages[0].Name
	}
	if base == "" {
		base = restNoBasePath
	}
	if dom == nil {
		obs.Changes.Add("customDomain", func(ctx context.Context) error {
			_, err := d.rest.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String(name), RegionalCertificateArn: aws.String(spec.CertificateARN),
				EndpointConfiguration: &types.EndpointConfiguration{Types: []types.EndpointType{types.EndpointTypeRegional}},
				SecurityPolicy:        types.SecurityPolicyTls12, Tags: tags})
			if err != nil {
				return managed.Wrap(err, "create custom domain name %s", name)
			}
			return d.createRESTMapping(ctx, name, api, base, stage)
		})
		return false, nil
	}
	url := "https://" + name
	if spec.BasePath != "" {
		url += "/" + spec.BasePath
	}
	o.Status.CustomDomain = &v1alpha1.CustomDomainStatus{DomainName: name, URL: url,
		TargetDomainName: aws.ToString(dom.RegionalDomainName), HostedZoneID: aws.ToString(dom.RegionalHostedZoneId)}
	if aws.ToString(dom.RegionalCertificateArn) != spec.CertificateARN {
		obs.Changes.Add("customDomain", func(ctx context.Context) error {
			_, err := d.rest.UpdateDomainName(ctx, &apigateway.UpdateDomainNameInput{DomainName: aws.String(name),
				PatchOperations: []types.PatchOperation{patchReplace("/regionalCertificateArn", spec.CertificateARN)}})
			return managed.Wrap(err, "update the certificate of custom domain name %s", name)
		})
	}
	d.planRESTTags(&obs.Changes, aws.ToString(dom.DomainNameArn), tags, dom.Tags)
	return d.planRESTMapping(ctx, name, api, base, stage, &obs.Changes)
}

// planRESTMapping plans the base path mapping of the domain name: the mappings of the domain that
// are this API's, or at the spec's base path, and are not the spec's mapping deleted, and the
// spec's mapping created when missing. It reports whether the spec's mapping exists.
func (d *restDriver) planRESTMapping(ctx context.Context, name, api, base, stage string, plan *managed.Plan) (bool, error) {
	out, err := d.rest.GetBasePathMappings(ctx, &apigateway.GetBasePathMappingsInput{DomainName: aws.String(name), Limit: aws.Int32(500)})
	if err != nil {
		return false, managed.Wrap(err, "get the base path mappings of custom domain name %s", name)
	}
	found := false
	var stale []string
	for _, m := range out.Items {
		path, same := aws.ToString(m.BasePath), aws.ToString(m.RestApiId) == api
		switch {
		case same && path == base && aws.ToString(m.Stage) == stage:
			found = true
		case same || path == base:
			stale = append(stale, path)
		}
	}
	if found && len(stale) == 0 {
		return true, nil
	}
	plan.Add("customDomain", func(ctx context.Context) error {
		for _, path := range stale {
			_, err := d.rest.DeleteBasePathMapping(ctx, &apigateway.DeleteBasePathMappingInput{DomainName: aws.String(name), BasePath: aws.String(path)})
			if err := notFoundIsGone(err, "delete base path mapping %s of custom domain name %s", path, name); err != nil {
				return err
			}
		}
		if found {
			return nil
		}
		return d.createRESTMapping(ctx, name, api, base, stage)
	})
	return found, nil
}

// createRESTMapping maps the base path of the domain name to the stage of the REST API api.
func (d *restDriver) createRESTMapping(ctx context.Context, name, api, base, stage string) error {
	in := &apigateway.CreateBasePathMappingInput{DomainName: aws.String(name), RestApiId: aws.String(api), Stage: aws.String(stage)}
	if base != restNoBasePath {
		in.BasePath = aws.String(base)
	}
	_, err := d.rest.CreateBasePathMapping(ctx, in)
	return managed.Wrap(err, "map base path %s of custom domain name %s to stage %s", base, name, stage)
}

// deleteRESTDomain deletes the custom domain name, with its base path mappings; a name already
// gone is success.
func (d *restDriver) deleteRESTDomain(ctx context.Context, name string) error {
	_, err := d.rest.DeleteDomainName(ctx, &apigateway.DeleteDomainNameInput{DomainName: aws.String(name)})
	return notFoundIsGone(err, "delete custom domain name %s", name)
}
