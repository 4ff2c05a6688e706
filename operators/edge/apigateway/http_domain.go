package apigateway

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// httpDomainState is a custom domain name the object owns and the API's mapping on it.
type httpDomainState struct {
	// name is GetDomainName's answer, with its tags.
	name *types.DomainName
	// mapping is the mapping of the API on the domain name; nil when it has none.
	mapping *types.ApiMapping
}

// domainARN returns the ARN of custom domain name name, which tags name it by.
func domainARN(region, name string) string {
	return fmt.Sprintf("arn:%s:apigateway:%s::/domainnames/%s", provider.Partition(region), region, name)
}

// httpDomainName returns the custom domain name the object has, as API Gateway keeps it (in
// lower case): the spec's, else the one status.customDomain records (the spec dropped it, and
// it is still to delete); "" for none.
func httpDomainName(o *v1alpha1.APIGateway) string {
	if o.Spec.CustomDomain != nil {
		return strings.ToLower(o.Spec.CustomDomain.DomainName)
	}
	if o.Status.CustomDomain != nil {
		return o.Status.CustomDomain.DomainName
	}
	return ""
}

// readHTTPDomain reads the object's custom domain name (GetDomainName) and the API's mapping
// on it (GetApiMappings); nil when there is none. A domain name without o's ownership tags is
// returned with taken true, and without its mappings.
func (d *httpDriver) readHTTPDomain(ctx context.Context, o *v1alpha1.APIGateway, apiID string) (st *httpDomainState, taken bool, err error) {
	name := httpDomainName(o)
	if name == "" {
		return nil, false, nil
	}
	out, err := d.http.GetDomainName(ctx, &apigatewayv2.GetDomainNameInput{DomainName: aws.String(name)})
	if awserr.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("get custom domain name %s: %w", name, err)
	}
	st = &httpDomainState{name: &types.DomainName{DomainName: out.DomainName, DomainNameConfigurations: out.DomainNameConfigurations, Tags: out.Tags}}
	if !managed.OwnedBy(o, out.Tags) {
		return st, true, nil
	}
	for token := (*string)(nil); ; {
		maps, err := d.http.GetApiMappings(ctx, &apigatewayv2.GetApiMappingsInput{DomainName: aws.String(name), NextToken: token})
		if err != nil {
			return nil, false, fmt.Errorf("list the API mappings of domain name %s: %w", name, err)
		}
		for i, m := range maps.Items {
			if aws.ToString(m.ApiId) == apiID {
				st.mapping = &maps.Items[i]
			}
		}
		if token = maps.NextToken; token == nil {
			return st, false, nil
		}
	}
}

// httpMappedStage returns the stage the custom domain serves: its stage, else the first stage.
func httpMappedStage(o *v1alpha1.APIGateway) string {
	if s := o.Spec.CustomDomain.Stage; s != "" {
		return s
	}
	return o.Spec.Stages[0].Name
}

// planHTTPDomain plans the custom domain name: created with the API's mapping, its certificate
// and its mapping's stage and base path updated, or, when the spec dropped it, the mapping and
// the domain name deleted. It fills status.customDomain and returns why the domain is not
// usable yet, "" when it is (or the spec has none). A domain name that exists and is not the
// object's is a conflict: the operator never takes it over.
func (d *httpDriver) planHTTPDomain(o *v1alpha1.APIGateway, apiID string, st *httpDomainState, taken bool, tags map[string]string, obs *managed.Observation[State]) string {
	spec := o.Spec.CustomDomain
	if taken {
		if spec != nil {
			obs.Conflict = managed.Terminal(condition.ReasonDomainNameTaken,
				"custom domain name %s exists in the account and is not this APIGateway's: delete it in API Gateway, or choose another spec.customDomain.domainName", spec.DomainName)
		}
		o.Status.CustomDomain = nil
		return ""
	}
	if spec == nil {
		if st != nil {
			obs.Changes.Add("customDomain", func(ctx context.Context) error { return d.deleteHTTPDomain(ctx, st) })
		} else {
			o.Status.CustomDomain = nil
		}
		return ""
	}
	stage, key := httpMappedStage(o), spec.BasePath
	if st == nil {
		obs.Changes.Add("customDomain", func(ctx context.Context) error {
			if _, err := d.http.CreateDomainName(ctx, &apigatewayv2.CreateDomainNameInput{DomainName: aws.String(spec.DomainName), Tags: tags,
				DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: aws.String(spec.CertificateARN),
					EndpointType: types.EndpointTypeRegional, SecurityPolicy: types.SecurityPolicyTls12}}}); err != nil {
				return managed.Wrap(err, "create custom domain name %s", spec.DomainName)
			}
			o.Status.CustomDomain = &v1alpha1.CustomDomainStatus{DomainName: spec.DomainName}
			return d.createHTTPMapping(ctx, apiID, spec.DomainName, stage, key)
		})
		return "the custom domain name is being created"
	}
	cfg := types.DomainNameConfiguration{}
	if len(st.name.DomainNameConfigurations) > 0 {
		cfg = st.name.DomainNameConfigurations[0]
	}
	o.Status.CustomDomain = &v1alpha1.CustomDomainStatus{DomainName: spec.DomainName, TargetDomainName: aws.ToString(cfg.ApiGatewayDomainName),
		HostedZoneID: aws.ToString(cfg.HostedZoneId), URL: "https://" + spec.DomainName + "/" + key}
	if aws.ToString(cfg.CertificateArn) != spec.CertificateARN {
		obs.Changes.Add("customDomain", func(ctx context.Context) error {
			_, err := d.http.UpdateDomainName(ctx, &apigatewayv2.UpdateDomainNameInput{DomainName: aws.String(spec.DomainName),
				DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: aws.String(spec.CertificateARN),
					EndpointType: types.EndpointTypeRegional, SecurityPolicy: types.SecurityPolicyTls12}}})
			return managed.Wrap(err, "change the certificate of custom domain name %s", spec.DomainName)
		})
	}
	switch m := st.mapping; {
	case m == nil:
		obs.Changes.Add("customDomain", func(ctx context.Context) error { return d.createHTTPMapping(ctx, apiID, spec.DomainName, stage, key) })
	case aws.ToString(m.Stage) != stage || aws.ToString(m.ApiMappingKey) != key:
		obs.Changes.Add("customDomain", func(ctx context.Context) error {
			_, err := d.http.UpdateApiMapping(ctx, &apigatewayv2.UpdateApiMappingInput{DomainName: aws.String(spec.DomainName),
				ApiMappingId: m.ApiMappingId, ApiId: aws.String(apiID), Stage: aws.String(stage), ApiMappingKey: aws.String(key)})
			return managed.Wrap(err, "update the mapping of API %s on domain name %s", apiID, spec.DomainName)
		})
	}
	if status := cfg.DomainNameStatus; status != "" && status != types.DomainNameStatusAvailable {
		return fmt.Sprintf("custom domain name %s is %s: %s", spec.DomainName, status, aws.ToString(cfg.DomainNameStatusMessage))
	}
	return ""
}

// createHTTPMapping maps the API's stage on the domain name at base path key.
func (d *httpDriver) createHTTPMapping(ctx context.Context, apiID, domain, stage, key string) error {
	in := &apigatewayv2.CreateApiMappingInput{DomainName: aws.String(domain), ApiId: aws.String(apiID), Stage: aws.String(stage)}
	if key != "" {
		in.ApiMappingKey = aws.String(key)
	}
	_, err := d.http.CreateApiMapping(ctx, in)
	return managed.Wrap(err, "map stage %s of API %s on domain name %s", stage, apiID, domain)
}

// deleteHTTPDomain deletes the API's mapping on the custom domain name, then the domain name;
// what is already gone is success.
func (d *httpDriver) deleteHTTPDomain(ctx context.Context, st *httpDomainState) error {
	name := st.name.DomainName
	if st.mapping != nil {
		_, err := d.http.DeleteApiMapping(ctx, &apigatewayv2.DeleteApiMappingInput{DomainName: name, ApiMappingId: st.mapping.ApiMappingId})
		if err := notFoundIsGone(err, "delete the API mapping of domain name %s", aws.ToString(name)); err != nil {
			return err
		}
	}
	_, err := d.http.DeleteDomainName(ctx, &apigatewayv2.DeleteDomainNameInput{DomainName: name})
	return notFoundIsGone(err, "delete custom domain name %s", aws.ToString(name))
}
