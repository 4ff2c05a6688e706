package iam

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The limits of OpenID Connect providers (IAM API reference, CreateOpenIDConnectProvider; IAM
// and AWS STS quotas).
const (
	maxOIDCProviders  = 100 // an account
	maxOIDCURL        = 255
	maxClientIDs      = 100 // a provider
	maxClientIDLength = 255
	maxThumbprints    = 5
)

// thumbprintPattern is a certificate thumbprint: the hex-encoded SHA-1 hash, 40 characters.
var thumbprintPattern = regexp.MustCompile(`^[0-9A-Fa-f]{40}$`)

// oidcProvider is one IAM OpenID Connect identity provider. Its entity's name is its URL
// without https://, which its ARN ends with (arn:aws:iam::<account>:oidc-provider/<url>).
type oidcProvider struct {
	entity
	clientIDs   []string
	thumbprints []string
}

// oidcProviderByARN returns the OpenID Connect provider a request names by ARN, or AWS's error:
// InvalidInput for an ARN that is not an OIDC provider's, NoSuchEntity for one that does not
// exist. The caller holds the backend's lock.
func (a *account) oidcProviderByARN(call *core.Call, arn *string) (*oidcProvider, error) {
	s := aws.ToString(arn)
	if len(s) < 20 || len(s) > 2048 {
		return nil, validationError(s, "openIDConnectProviderArn", "Member must have length between 20 and 2048")
	}
	prefix := "arn:aws:iam::" + a.id + ":oidc-provider/"
	if !strings.HasPrefix(s, "arn:") || !strings.Contains(s, ":oidc-provider/") {
		return nil, invalidInput("ARN %s is not valid.", s)
	}
	p, ok := a.oidc[key(strings.TrimPrefix(s, prefix))]
	if !strings.HasPrefix(s, prefix) || !ok || !p.visible(call) {
		return nil, noSuchEntity("OpenIDConnect Provider not found for arn %s", s)
	}
	return p, nil
}

// checkOIDCURL returns a provider's URL without https://, or AWS's error for one that is empty,
// longer than 255 characters or not an https URL with a host.
func checkOIDCURL(u *string) (string, error) {
	s := aws.ToString(u)
	if s == "" || len(s) > maxOIDCURL {
		return "", validationError(s, "url", fmt.Sprintf("Member must have length between 1 and %d", maxOIDCURL))
	}
	host, ok := strings.CutPrefix(s, "https://")
	if !ok || host == "" || strings.HasPrefix(host, "/") || strings.ContainsAny(host, " ?#") {
		return "", invalidInput("Invalid Open ID Connect Provider URL")
	}
	return strings.TrimSuffix(host, "/"), nil
}

// checkClientIDs returns AWS's error for more than 100 client IDs or one of 0 or more than 255
// characters.
func checkClientIDs(ids []string) error {
	if len(ids) > maxClientIDs {
		return quotaExceeded("ClientIdsPerOpenIdConnectProvider", maxClientIDs)
	}
	for _, id := range ids {
		if err := checkClientID(id); err != nil {
			return err
		}
	}
	return nil
}

// checkClientID returns the ValidationError of a client ID of 0 or more than 255 characters.
func checkClientID(id string) error {
	if id == "" || len(id) > maxClientIDLength {
		return validationError(id, "clientID", fmt.Sprintf("Member must have length between 1 and %d", maxClientIDLength))
	}
	return nil
}

// checkThumbprints returns AWS's error for more than five thumbprints (InvalidInput) or one that
// is not 40 hex characters.
func checkThumbprints(list []string) error {
	if len(list) > maxThumbprints {
		return invalidInput("Thumbprint list must contain fewer than %d entries.", maxThumbprints)
	}
	for i, t := range list {
		if len(t) != 40 {
			return validationError(t, fmt.Sprintf("thumbprintList.%d.member", i+1), "Member must have length greater than or equal to 40")
		}
		if !thumbprintPattern.MatchString(t) {
			return invalidInput("Thumbprint %s is not a valid hex-encoded SHA-1 thumbprint", t)
		}
	}
	return nil
}

// unique returns list without repeated values, in the order first given.
func unique(list []string) []string {
	out := []string{}
	for _, v := range list {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// createOpenIDConnectProvider creates an OpenID Connect provider: one per URL in an account.
func (b *Backend) createOpenIDConnectProvider(call *core.Call, in *iam.CreateOpenIDConnectProviderInput) (*iam.CreateOpenIDConnectProviderOutput, error) {
	host, err := checkOIDCURL(in.Url)
	if err != nil {
		return nil, err
	}
	if err := checkClientIDs(in.ClientIDList); err != nil {
		return nil, err
	}
	if err := checkThumbprints(in.ThumbprintList); err != nil {
		return nil, err
	}
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(a *account) (*iam.CreateOpenIDConnectProviderOutput, error) {
		if _, ok := a.oidc[key(host)]; ok {
			return nil, alreadyExists("Provider with url %s already exists.", aws.ToString(in.Url))
		}
		if len(a.oidc) >= maxOIDCProviders {
			return nil, quotaExceeded("OpenIdConnectProvidersPerAccount", maxOIDCProviders)
		}
		p := &oidcProvider{entity: a.newEntity(call, "oidc-provider", "", host, "/"), clientIDs: unique(in.ClientIDList), thumbprints: unique(in.ThumbprintList)}
		if err := add(a, a.oidc, p, tags); err != nil {
			return nil, err
		}
		return &iam.CreateOpenIDConnectProviderOutput{OpenIDConnectProviderArn: aws.String(p.arn), Tags: a.tagList(p.arn)}, nil
	})
}

// getOpenIDConnectProvider describes a provider: its URL without https://, as AWS answers it.
func (b *Backend) getOpenIDConnectProvider(call *core.Call, in *iam.GetOpenIDConnectProviderInput) (*iam.GetOpenIDConnectProviderOutput, error) {
	return withEntity(b, call, (*account).oidcProviderByARN, in.OpenIDConnectProviderArn, func(a *account, p *oidcProvider) (*iam.GetOpenIDConnectProviderOutput, error) {
		return &iam.GetOpenIDConnectProviderOutput{Url: aws.String(p.name), ClientIDList: slices.Clone(p.clientIDs),
			ThumbprintList: slices.Clone(p.thumbprints), CreateDate: aws.Time(p.created), Tags: a.tagList(p.arn)}, nil
	})
}

// deleteOpenIDConnectProvider deletes a provider.
func (b *Backend) deleteOpenIDConnectProvider(call *core.Call, in *iam.DeleteOpenIDConnectProviderInput) (*iam.DeleteOpenIDConnectProviderOutput, error) {
	return withEntity(b, call, (*account).oidcProviderByARN, in.OpenIDConnectProviderArn, func(a *account, p *oidcProvider) (*iam.DeleteOpenIDConnectProviderOutput, error) {
		delete(a.oidc, key(p.name))
		a.tags.Delete(p.arn)
		return &iam.DeleteOpenIDConnectProviderOutput{}, nil
	})
}

// listOpenIDConnectProviders lists the ARNs of the account's providers, sorted.
func (b *Backend) listOpenIDConnectProviders(call *core.Call, _ *iam.ListOpenIDConnectProvidersInput) (*iam.ListOpenIDConnectProvidersOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*iam.ListOpenIDConnectProvidersOutput, error) {
		list := []types.OpenIDConnectProviderListEntry{}
		for _, k := range core.SortedKeys(a.oidc) {
			if p := a.oidc[k]; p.visible(call) {
				list = append(list, types.OpenIDConnectProviderListEntry{Arn: aws.String(p.arn)})
			}
		}
		return &iam.ListOpenIDConnectProvidersOutput{OpenIDConnectProviderList: list}, nil
	})
}

// addClientIDToOpenIDConnectProvider adds a client ID; one the provider has is left as it is.
func (b *Backend) addClientIDToOpenIDConnectProvider(call *core.Call, in *iam.AddClientIDToOpenIDConnectProviderInput) (*iam.AddClientIDToOpenIDConnectProviderOutput, error) {
	id := aws.ToString(in.ClientID)
	if err := checkClientID(id); err != nil {
		return nil, err
	}
	return withEntity(b, call, (*account).oidcProviderByARN, in.OpenIDConnectProviderArn, func(_ *account, p *oidcProvider) (*iam.AddClientIDToOpenIDConnectProviderOutput, error) {
		return &iam.AddClientIDToOpenIDConnectProviderOutput{}, appendCapped(&p.clientIDs, id, "ClientIdsPerOpenIdConnectProvider", maxClientIDs)
	})
}

// removeClientIDFromOpenIDConnectProvider removes a client ID; removing one the provider does not
// have succeeds, as AWS documents.
func (b *Backend) removeClientIDFromOpenIDConnectProvider(call *core.Call, in *iam.RemoveClientIDFromOpenIDConnectProviderInput) (*iam.RemoveClientIDFromOpenIDConnectProviderOutput, error) {
	id := aws.ToString(in.ClientID)
	if err := checkClientID(id); err != nil {
		return nil, err
	}
	return withEntity(b, call, (*account).oidcProviderByARN, in.OpenIDConnectProviderArn, func(_ *account, p *oidcProvider) (*iam.RemoveClientIDFromOpenIDConnectProviderOutput, error) {
		p.clientIDs = slices.DeleteFunc(p.clientIDs, func(c string) bool { return c == id })
		return &iam.RemoveClientIDFromOpenIDConnectProviderOutput{}, nil
	})
}

// updateOpenIDConnectProviderThumbprint replaces a provider's thumbprints.
func (b *Backend) updateOpenIDConnectProviderThumbprint(call *core.Call, in *iam.UpdateOpenIDConnectProviderThumbprintInput) (*iam.UpdateOpenIDConnectProviderThumbprintOutput, error) {
	if err := checkThumbprints(in.ThumbprintList); err != nil {
		return nil, err
	}
	return withEntity(b, call, (*account).oidcProviderByARN, in.OpenIDConnectProviderArn, func(_ *account, p *oidcProvider) (*iam.UpdateOpenIDConnectProviderThumbprintOutput, error) {
		p.thumbprints = unique(in.ThumbprintList)
		return &iam.UpdateOpenIDConnectProviderThumbprintOutput{}, nil
	})
}
