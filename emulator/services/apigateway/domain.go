package apigateway

import (
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// domain is one custom domain name with its base path mappings.
type domain struct {
	cfg      types.DomainName // as GetDomainName shows it, but for tags
	arn      string
	mappings map[string]*types.BasePathMapping // by base path
}

// domainName is the form of a custom domain name: dot-separated labels, the first possibly a
// wildcard.
var domainName = regexp.MustCompile(`^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

// edgeHostedZone is the hosted zone of every CloudFront distribution, which edge-optimized
// domain names are.
const edgeHostedZone = "Z2FDTNDATAQYW2"

// certificateRegion is where ACM must hold the certificate of an edge-optimized domain name.
const certificateRegion = "us-east-1"

// lookupDomain returns the domain name a request names, or NotFoundException.
func (r *region) lookupDomain(name *string) (*domain, error) {
	d, ok := r.domains[aws.ToString(name)]
	if !ok {
		return nil, core.NotFoundf("NotFoundException", "Invalid domain name identifier specified")
	}
	return d, nil
}

// domainView returns the domain name with its tags.
func (r *region) domainView(d *domain) *types.DomainName {
	out := d.cfg
	out.Tags = r.tags.Map(d.arn)
	return &out
}

func (b *Backend) createDomainName(call *core.Call, in *apigateway.CreateDomainNameInput) (*apigateway.CreateDomainNameOutput, error) {
	name := strings.ToLower(aws.ToString(in.DomainName))
	if !domainName.MatchString(name) {
		return nil, BadRequest("Invalid domain name identifier specified")
	}
	if in.CertificateBody != nil || in.CertificatePrivateKey != nil {
		return nil, BadRequest("The emulator does not implement uploaded certificates; use a certificate from ACM")
	}
	endpoints, err := endpointConfiguration(in.EndpointConfiguration)
	if err != nil {
		return nil, err
	}
	regional := endpoints.Types[0] == types.EndpointTypeRegional
	cert, certScope := aws.ToString(in.CertificateArn), core.Scope{Account: call.Account, Region: certificateRegion}
	if regional {
		cert, certScope = aws.ToString(in.RegionalCertificateArn), call.Scope()
	}
	if endpoints.Types[0] == types.EndpointTypePrivate {
		return nil, BadRequest("The emulator does not implement private custom domain names")
	}
	if cert == "" {
		return nil, BadRequest("A certificate must be specified for a domain name")
	}
	if !b.certs.Has(certScope, cert) {
		return nil, BadRequest("Certificate %s not found in account %s", cert, call.Account)
	}
	policy := in.SecurityPolicy
	if policy == "" {
		policy = types.SecurityPolicyTls12
	}
	return core.Locked(b.state, call, func(r *region) (*apigateway.CreateDomainNameOutput, error) {
		if _, ok := r.domains[name]; ok {
			return nil, Conflict("The domain name you provided already exists.")
		}
		d := &domain{arn: ARN(r.scope, "/domainnames/"+name), mappings: map[string]*types.BasePathMapping{}}
		d.cfg = types.DomainName{
			DomainName: aws.String(name), DomainNameArn: aws.String(d.arn), EndpointConfiguration: endpoints, SecurityPolicy: policy,
			DomainNameStatus: types.DomainNameStatusAvailable, CertificateUploadDate: aws.Time(call.Now), RoutingMode: in.RoutingMode,
		}
		if regional {
			d.cfg.RegionalCertificateArn = aws.String(cert)
			d.cfg.RegionalDomainName = aws.String("d-" + core.LowerAlnumID(10) + ".execute-api." + r.scope.Region + ".amazonaws.com")
			d.cfg.RegionalHostedZoneId = aws.String(RegionalHostedZone(r.scope.Region))
		} else {
			d.cfg.CertificateArn = aws.String(cert)
			d.cfg.DistributionDomainName = aws.String("d" + core.LowerAlnumID(13) + ".cloudfront.net")
			d.cfg.DistributionHostedZoneId = aws.String(edgeHostedZone)
		}
		if d.cfg.RoutingMode == "" {
			d.cfg.RoutingMode = types.RoutingModeBasePathMappingOnly
		}
		return Created[apigateway.CreateDomainNameOutput](r.tags, in.Tags, d.arn, r.domains, name, d, r.domainView)
	})
}

// getDomainName answers GetDomainName with the custom domain name a request names.
func (b *Backend) getDomainName(call *core.Call, in *apigateway.GetDomainNameInput) (*apigateway.GetDomainNameOutput, error) {
	return Read[apigateway.GetDomainNameOutput](b.state, call, func(r *region) (*types.DomainName, error) {
		d, err := r.lookupDomain(in.DomainName)
		return View(d, err, r.domainView)
	})
}

// getDomainNames answers GetDomainNames with a page of the region's custom domain names, by name.
func (b *Backend) getDomainNames(call *core.Call, in *apigateway.GetDomainNamesInput) (*apigateway.GetDomainNamesOutput, error) {
	return List[apigateway.GetDomainNamesOutput](b.state, call, func(r *region) ([]types.DomainName, error) { return Views(r.domains, r.domainView), nil },
		page, in.Position, in.Limit)
}

func (b *Backend) updateDomainName(call *core.Call, in *apigateway.UpdateDomainNameInput) (*apigateway.UpdateDomainNameOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.UpdateDomainNameOutput, error) {
		d, err := r.lookupDomain(in.DomainName)
		if err != nil {
			return nil, err
		}
		cfg := d.cfg
		if err := patch(in.PatchOperations, func(p patchOp) error { return b.patchDomain(call, &cfg, p) }); err != nil {
			return nil, err
		}
		d.cfg = cfg
		out := &apigateway.UpdateDomainNameOutput{}
		core.Fill(out, r.domainView(d))
		return out, nil
	})
}

// patchDomain applies one patch operation to a domain name: its certificate (regional, or
// edge-optimized, which ACM must hold in us-east-1), or its security policy.
func (b *Backend) patchDomain(call *core.Call, cfg *types.DomainName, p patchOp) error {
	regional := cfg.EndpointConfiguration.Types[0] == types.EndpointTypeRegional
	switch p.parts[0] {
	case "regionalCertificateArn", "certificateArn":
		if regional != (p.parts[0] == "regionalCertificateArn") || len(p.parts) != 1 || p.op != types.OpReplace {
			return p.invalidPath()
		}
		scope := core.Scope{Account: call.Account, Region: certificateRegion}
		if regional {
			scope = call.Scope()
		}
		if !b.certs.Has(scope, aws.ToString(p.value)) {
			return BadRequest("Certificate %s not found in account %s", aws.ToString(p.value), call.Account)
		}
		if regional {
			cfg.RegionalCertificateArn = p.value
		} else {
			cfg.CertificateArn = p.value
		}
	case "securityPolicy":
		if v := types.SecurityPolicy(aws.ToString(p.value)); v != types.SecurityPolicyTls10 && v != types.SecurityPolicyTls12 {
			return BadRequest("Invalid security policy: %s", v)
		}
		cfg.SecurityPolicy = types.SecurityPolicy(aws.ToString(p.value))
	default:
		return p.invalidPath()
	}
	return nil
}

func (b *Backend) deleteDomainName(call *core.Call, in *apigateway.DeleteDomainNameInput) (*apigateway.DeleteDomainNameOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteDomainNameOutput, error) {
		d, err := r.lookupDomain(in.DomainName)
		if err != nil {
			return nil, err
		}
		r.tags.Delete(d.arn)
		delete(r.domains, aws.ToString(d.cfg.DomainName))
		return &apigateway.DeleteDomainNameOutput{}, nil
	})
}

// noBasePath is how API Gateway names the empty base path, which maps the root of a domain.
const noBasePath = "(none)"

// basePath is the form of a base path: path segments of letters, digits and $-_.+!*'().
var basePath = regexp.MustCompile(`^[A-Za-z0-9$\-_.+!*'()]+(/[A-Za-z0-9$\-_.+!*'()]+)*$`)

func (b *Backend) createBasePathMapping(call *core.Call, in *apigateway.CreateBasePathMappingInput) (*apigateway.CreateBasePathMappingOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.CreateBasePathMappingOutput, error) {
		d, err := r.lookupDomain(in.DomainName)
		if err != nil {
			return nil, err
		}
		a, err := r.lookup(call, in.RestApiId)
		if err != nil {
			return nil, err
		}
		if in.Stage != nil {
			if _, ok := a.stages[*in.Stage]; !ok {
				return nil, BadRequest("Invalid stage identifier specified")
			}
		}
		path := aws.ToString(in.BasePath)
		if path == "" {
			path = noBasePath
		} else if !basePath.MatchString(path) {
			return nil, BadRequest("Invalid base path specified: %s", path)
		}
		if _, ok := d.mappings[path]; ok {
			return nil, Conflict("Base path already exists for this domain name")
		}
		m := &types.BasePathMapping{BasePath: aws.String(path), RestApiId: in.RestApiId, Stage: in.Stage}
		d.mappings[path] = m
		out := &apigateway.CreateBasePathMappingOutput{}
		core.Fill(out, m)
		return out, nil
	})
}

// mapping returns the base path mapping a request names, or NotFoundException.
func (r *region) mapping(domainName, path *string) (*domain, *types.BasePathMapping, error) {
	d, err := r.lookupDomain(domainName)
	return Member(d, err, func(d *domain) map[string]*types.BasePathMapping { return d.mappings }, path,
		core.NotFoundf("NotFoundException", "Invalid base path mapping identifier specified"))
}

// getBasePathMapping answers GetBasePathMapping with the base path mapping a request names.
func (b *Backend) getBasePathMapping(call *core.Call, in *apigateway.GetBasePathMappingInput) (*apigateway.GetBasePathMappingOutput, error) {
	return Read[apigateway.GetBasePathMappingOutput](b.state, call, func(r *region) (*types.BasePathMapping, error) {
		_, m, err := r.mapping(in.DomainName, in.BasePath)
		return m, err
	})
}

// getBasePathMappings answers GetBasePathMappings with a page of a domain name's base path
// mappings, by base path.
func (b *Backend) getBasePathMappings(call *core.Call, in *apigateway.GetBasePathMappingsInput) (*apigateway.GetBasePathMappingsOutput, error) {
	return List[apigateway.GetBasePathMappingsOutput](b.state, call, func(r *region) ([]types.BasePathMapping, error) {
		d, err := r.lookupDomain(in.DomainName)
		return values(d, err, func(d *domain) map[string]*types.BasePathMapping { return d.mappings })
	}, page, in.Position, in.Limit)
}

func (b *Backend) deleteBasePathMapping(call *core.Call, in *apigateway.DeleteBasePathMappingInput) (*apigateway.DeleteBasePathMappingOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteBasePathMappingOutput, error) {
		d, m, err := r.mapping(in.DomainName, in.BasePath)
		if err != nil {
			return nil, err
		}
		delete(d.mappings, aws.ToString(m.BasePath))
		return &apigateway.DeleteBasePathMappingOutput{}, nil
	})
}
