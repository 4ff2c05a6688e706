package iamoidcprovider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what IAM said about a provider, handed from Observe to Delete and ReleaseOwnership.
type State struct {
	// ARN is the provider's ARN.
	ARN string
}

// Observe reads the provider (GetOpenIDConnectProvider, ListOpenIDConnectProviderTags), fills
// the status and plans the client IDs, the thumbprints (when the spec lists some) and the tags.
func (d *driver) Observe(ctx context.Context, p *v1alpha1.IAMOIDCProvider, req managed.Request) (managed.Observation[State], error) {
	arn, err := d.arn(ctx, p)
	if err != nil || arn == "" {
		return managed.Observation[State]{}, err
	}
	out, tags, found, err := managed.ReadClaimed(ctx, p, "IAM OIDC provider", arn, func(ctx context.Context) (*iam.GetOpenIDConnectProviderOutput, error) {
		return d.api.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn)})
	}, func(ctx context.Context) (map[string]string, error) { return d.tags(ctx, arn) })
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	url := aws.ToString(out.Url)
	p.Status.ARN, p.Status.URL = arn, url
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{ARN: arn}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if want := host(p.Spec.URL); want != "" && !strings.EqualFold(want, host(url)) {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "OIDC provider %s is for %s, not the spec's %s: a provider's URL cannot change; "+
			"create a new IAMOIDCProvider", arn, url, p.Spec.URL)
		return obs, nil
	}
	if add, remove := difference(p.Spec.ClientIDs, out.ClientIDList), difference(out.ClientIDList, p.Spec.ClientIDs); len(add)+len(remove) > 0 {
		obs.Changes.AddValue("clientIDs", sorted(out.ClientIDList), sorted(p.Spec.ClientIDs), func(ctx context.Context) error {
			return d.changeClientIDs(ctx, arn, add, remove)
		})
	}
	if len(p.Spec.Thumbprints) > 0 && !sameThumbprints(out.ThumbprintList, p.Spec.Thumbprints) {
		obs.Changes.AddValue("thumbprints", sorted(out.ThumbprintList), sorted(p.Spec.Thumbprints), func(ctx context.Context) error {
			_, err := d.api.UpdateOpenIDConnectProviderThumbprint(ctx, &iam.UpdateOpenIDConnectProviderThumbprintInput{
				OpenIDConnectProviderArn: aws.String(arn), ThumbprintList: p.Spec.Thumbprints})
			return managed.Wrap(err, "update the thumbprints of OIDC provider %s", arn)
		})
	}
	obs.Changes.AddTags(req.Tags, tags, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagOpenIDConnectProvider(ctx, &iam.TagOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn), Tags: tagList(set)})
		return managed.Wrap(err, "tag OIDC provider %s", arn)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagOpenIDConnectProvider(ctx, &iam.UntagOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn), TagKeys: keys})
		return managed.Wrap(err, "untag OIDC provider %s", arn)
	}))
	return obs, nil
}

// changeClientIDs adds the client IDs add (AddClientIDToOpenIDConnectProvider) and then removes
// the client IDs remove (RemoveClientIDFromOpenIDConnectProvider), one call each.
func (d *driver) changeClientIDs(ctx context.Context, arn string, add, remove []string) error {
	for _, id := range add {
		_, err := d.api.AddClientIDToOpenIDConnectProvider(ctx, &iam.AddClientIDToOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn), ClientID: aws.String(id)})
		if err != nil {
			return managed.Wrap(err, "add client ID %s to OIDC provider %s", id, arn)
		}
	}
	for _, id := range remove {
		_, err := d.api.RemoveClientIDFromOpenIDConnectProvider(ctx, &iam.RemoveClientIDFromOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn), ClientID: aws.String(id)})
		if err != nil {
			return managed.Wrap(err, "remove client ID %s from OIDC provider %s", id, arn)
		}
	}
	return nil
}

// difference returns the values of a that b does not have, in a's order.
func difference(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// sameThumbprints reports whether two lists hold the same thumbprints, without regard to order
// and to the case of their hex digits.
func sameThumbprints(a, b []string) bool {
	lower := func(l []string) []string {
		out := make([]string, len(l))
		for i, v := range l {
			out[i] = strings.ToLower(v)
		}
		return slices.Compact(sorted(out))
	}
	return slices.Equal(lower(a), lower(b))
}

// sorted returns a sorted copy of a list, as a plan shows it.
func sorted(l []string) []string {
	out := slices.Clone(l)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return out
}

// tags reads the provider's tags (ListOpenIDConnectProviderTags, every page).
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	var list []types.Tag
	pages := iam.NewListOpenIDConnectProviderTagsPaginator(d.api, &iam.ListOpenIDConnectProviderTagsInput{OpenIDConnectProviderArn: aws.String(arn)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list the tags of OIDC provider %s: %w", arn, err)
		}
		list = append(list, page.Tags...)
	}
	return managed.TagMap(list, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
}

// tagList returns tags as IAM takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
