package apigatewayv2

import (
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// domain is one custom domain name with its API mappings.
type domain struct {
	cfg      types.DomainName // as GetDomainName shows it, but for tags
	arn      string
	mappings map[string]*types.ApiMapping // by id
}

// domainName is the form of a custom domain name: dot-separated labels, the first possibly a
// wildcard.
var domainName = regexp.MustCompile(`^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

// domainView returns the domain name with its tags.
func (r *region) domainView(d *domain) *types.DomainName {
	out := d.cfg
	out.Tags = r.tags.Map(d.arn)
	return &out
}

// lookupDomain returns the domain name a request names, or NotFoundException.
func (r *region) lookupDomain(name *string) (*domain, error) {
	d, ok := r.domains[aws.ToString(name)]
	if !ok {
		return nil, core.NotFoundf("NotFoundException", "The domain name resource specified in the request was not found.")
	}
	return d, nil
}

func (b *Backend) createDomainName(call *core.Call, in *apigatewayv2.CreateDomainNameInput) (*apigatewayv2.CreateDomainNameOutput, error) {
	name := strings.ToLower(aws.ToString(in.DomainName))
	if !domainName.MatchString(name) {
		return nil, badRequest("Invalid domain name identifier specified: %s", aws.ToString(in.DomainName))
	}
	if len(in.DomainNameConfigurations) != 1 {
		return nil, badRequest("Exactly one domain name configuration is required")
	}
	cfg := in.DomainNameConfigurations[0]
	if !b.certs.Has(call.Scope(), aws.ToString(cfg.CertificateArn)) {
		return nil, badRequest("Certificate %s not found in account %s", aws.ToString(cfg.CertificateArn), call.Account)
	}
	if cfg.EndpointType == "" {
		cfg.EndpointType = types.EndpointTypeRegional
	}
	if cfg.SecurityPolicy == "" {
		cfg.SecurityPolicy = types.SecurityPolicyTls12
	}
	if cfg.IpAddressType == "" {
		cfg.IpAddressType = types.IpAddressTypeIpv4
	}
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateDomainNameOutput, error) {
		if _, ok := r.domains[name]; ok {
			return nil, conflict("The domain name you provided already exists.")
		}
		cfg.ApiGatewayDomainName = aws.String("d-" + core.LowerAlnumID(10) + ".execute-api." + r.scope.Region + ".amazonaws.com")
		cfg.HostedZoneId = aws.String(apigateway.RegionalHostedZone(r.scope.Region))
		cfg.DomainNameStatus = types.DomainNameStatusAvailable
		d := &domain{arn: apigateway.ARN(r.scope, "/domainnames/"+name), mappings: map[string]*types.ApiMapping{}}
		d.cfg = types.DomainName{
			DomainName: aws.String(name), DomainNameConfigurations: []types.DomainNameConfiguration{cfg},
			ApiMappingSelectionExpression: aws.String("$request.basepath"), DomainNameArn: aws.String(d.arn),
			RoutingMode: in.RoutingMode,
		}
		if d.cfg.RoutingMode == "" {
			d.cfg.RoutingMode = types.RoutingModeApiMappingOnly
		}
		return apigateway.Created[apigatewayv2.CreateDomainNameOutput](r.tags, in.Tags, d.arn, r.domains, name, d, r.domainView)
	})
}

// updateDomainName replaces the domain name's configuration (its certificate, endpoint type
// and security policy), keeping the target domain name and hosted zone API Gateway gave it.
func (b *Backend) updateDomainName(call *core.Call, in *apigatewayv2.UpdateDomainNameInput) (*apigatewayv2.UpdateDomainNameOutput, error) {
	if len(in.DomainNameConfigurations) != 1 {
		return nil, badRequest("Exactly one domain name configuration is required")
	}
	cfg := in.DomainNameConfigurations[0]
	if !b.certs.Has(call.Scope(), aws.ToString(cfg.CertificateArn)) {
		return nil, badRequest("Certificate %s not found in account %s", aws.ToString(cfg.CertificateArn), call.Account)
	}
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.UpdateDomainNameOutput, error) {
		d, err := r.lookupDomain(in.DomainName)
		if err != nil {
			return nil, err
		}
		old := d.cfg.DomainNameConfigurations[0]
		old.CertificateArn = cfg.CertificateArn
		if cfg.EndpointType != "" {
			old.EndpointType = cfg.EndpointType
		}
		if cfg.SecurityPolicy != "" {
			old.SecurityPolicy = cfg.SecurityPolicy
		}
		d.cfg.DomainNameConfigurations = []types.DomainNameConfiguration{old}
		out := &apigatewayv2.UpdateDomainNameOutput{}
		core.Fill(out, r.domainView(d))
		return out, nil
	})
}

// getDomainName answers GetDomainName with the custom domain name a request names.
func (b *Backend) getDomainName(call *core.Call, in *apigatewayv2.GetDomainNameInput) (*apigatewayv2.GetDomainNameOutput, error) {
	return apigateway.Read[apigatewayv2.GetDomainNameOutput](b.state, call, func(r *region) (*types.DomainName, error) {
		d, err := r.lookupDomain(in.DomainName)
		return apigateway.View(d, err, r.domainView)
	})
}

// getDomainNames answers GetDomainNames with a page of the region's custom domain names, by name.
func (b *Backend) getDomainNames(call *core.Call, in *apigatewayv2.GetDomainNamesInput) (*apigatewayv2.GetDomainNamesOutput, error) {
	return apigateway.List[apigatewayv2.GetDomainNamesOutput](b.state, call, func(r *region) ([]types.DomainName, error) { return apigateway.Views(r.domains, r.domainView), nil },
		page, in.NextToken, in.MaxResults)
}

func (b *Backend) deleteDomainName(call *core.Call, in *apigatewayv2.DeleteDomainNameInput) (*apigatewayv2.DeleteDomainNameOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.DeleteDomainNameOutput, error) {
		d, err := r.lookupDomain(in.DomainName)
		if err != nil {
			return nil, err
		}
		r.tags.Delete(d.arn)
		delete(r.domains, aws.ToString(d.cfg.DomainName))
		return &apigatewayv2.DeleteDomainNameOutput{}, nil
	})
}

// mappingKey is the form of an API mapping key: path segments of letters, digits and
// $-_.+!*'(), or empty for the root of the domain.
var mappingKey = regexp.MustCompile(`^([A-Za-z0-9$\-_.+!*'()]+(/[A-Za-z0-9$\-_.+!*'()]+)*)?$`)

func (b *Backend) createAPIMapping(call *core.Call, in *apigatewayv2.CreateApiMappingInput) (*apigatewayv2.CreateApiMappingOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateApiMappingOutput, error) {
		d, err := r.lookupDomain(in.DomainName)
		if err != nil {
			return nil, err
		}
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		if err != nil {
			return nil, err
		}
		if _, ok := a.stages[aws.ToString(in.Stage)]; !ok {
			return nil, notFound(call, "Stage", aws.ToString(in.Stage))
		}
		key := aws.ToString(in.ApiMappingKey)
		if !mappingKey.MatchString(key) {
			return nil, badRequest("Invalid API mapping key specified: %s", key)
		}
		for _, m := range d.mappings {
			if aws.ToString(m.ApiMappingKey) == key {
				return nil, conflict("API mapping already exists for domain name %s and key %q", aws.ToString(d.cfg.DomainName), key)
			}
		}
		m := &types.ApiMapping{ApiMappingId: aws.String(core.LowerAlnumID(6)), ApiId: in.ApiId, Stage: in.Stage, ApiMappingKey: aws.String(key)}
		d.mappings[*m.ApiMappingId] = m
		out := &apigatewayv2.CreateApiMappingOutput{}
		core.Fill(out, m)
		return out, nil
	})
}

// mapping returns the API mapping a request names, or NotFoundException.
func (r *region) mapping(call *core.Call, name, id *string) (*domain, *types.ApiMapping, error) {
	d, err := r.lookupDomain(name)
	return apigateway.Member(d, err, func(d *domain) map[string]*types.ApiMapping { return d.mappings }, id,
		notFound(call, "ApiMapping", aws.ToString(id)))
}

// getAPIMapping answers GetApiMapping with the API mapping a request names.
func (b *Backend) getAPIMapping(call *core.Call, in *apigatewayv2.GetApiMappingInput) (*apigatewayv2.GetApiMappingOutput, error) {
	return apigateway.Read[apigatewayv2.GetApiMappingOutput](b.state, call, func(r *region) (*types.ApiMapping, error) {
		_, m, err := r.mapping(call, in.DomainName, in.ApiMappingId)
		return m, err
	})
}

// getAPIMappings answers GetApiMappings with a page of a domain name's API mappings, by id.
func (b *Backend) getAPIMappings(call *core.Call, in *apigatewayv2.GetApiMappingsInput) (*apigatewayv2.GetApiMappingsOutput, error) {
	return apigateway.List[apigatewayv2.GetApiMappingsOutput](b.state, call, func(r *region) ([]types.ApiMapping, error) {
		d, err := r.lookupDomain(in.DomainName)
		if err != nil {
			return nil, err
		}
		return sortedValues(d.mappings), nil
	}, page, in.NextToken, in.MaxResults)
}

// updateAPIMapping points an API mapping at another API, stage or key, checked as a new mapping
// is.
func (b *Backend) updateAPIMapping(call *core.Call, in *apigatewayv2.UpdateApiMappingInput) (*apigatewayv2.UpdateApiMappingOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.UpdateApiMappingOutput, error) {
		d, m, err := r.mapping(call, in.DomainName, in.ApiMappingId)
		if err != nil {
			return nil, err
		}
		next := *m
		next.ApiId = first(in.ApiId, next.ApiId)
		next.Stage = first(in.Stage, next.Stage)
		next.ApiMappingKey = first(in.ApiMappingKey, next.ApiMappingKey)
		a, err := r.lookup(call, aws.ToString(next.ApiId))
		if err != nil {
			return nil, err
		}
		if _, ok := a.stages[aws.ToString(next.Stage)]; !ok {
			return nil, notFound(call, "Stage", aws.ToString(next.Stage))
		}
		key := aws.ToString(next.ApiMappingKey)
		if !mappingKey.MatchString(key) {
			return nil, badRequest("Invalid API mapping key specified: %s", key)
		}
		for id, other := range d.mappings {
			if id != aws.ToString(m.ApiMappingId) && aws.ToString(other.ApiMappingKey) == key {
				return nil, conflict("API mapping already exists for domain name %s and key %q", aws.ToString(d.cfg.DomainName), key)
			}
		}
		*m = next
		out := &apigatewayv2.UpdateApiMappingOutput{}
		core.Fill(out, m)
		return out, nil
	})
}

func (b *Backend) deleteAPIMapping(call *core.Call, in *apigatewayv2.DeleteApiMappingInput) (*apigatewayv2.DeleteApiMappingOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.DeleteApiMappingOutput, error) {
		d, m, err := r.mapping(call, in.DomainName, in.ApiMappingId)
		if err != nil {
			return nil, err
		}
		delete(d.mappings, aws.ToString(m.ApiMappingId))
		return &apigatewayv2.DeleteApiMappingOutput{}, nil
	})
}

// AliasZone returns the Route 53 hosted zone of the custom domain name of the account, in any
// region, whose API Gateway domain name is name, for the emulated Route 53's checks of alias
// targets.
func (b *Backend) AliasZone(account, name string) (zone string, ok bool) {
	return core.Search(b.state, account, func(r *region) (string, bool) {
		for _, d := range r.domains {
			for _, cfg := range d.cfg.DomainNameConfigurations {
				if strings.EqualFold(aws.ToString(cfg.ApiGatewayDomainName), name) {
					return aws.ToString(cfg.HostedZoneId), true
				}
			}
		}
		return "", false
	})
}
