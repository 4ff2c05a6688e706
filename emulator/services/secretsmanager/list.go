package secretsmanager

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listSecrets lists the secrets of the region that pass the request's filters, sorted and by
// pages.
func (b *Backend) listSecrets(call *core.Call, in *secretsmanager.ListSecretsInput) (*secretsmanager.ListSecretsOutput, error) {
	size, err := pageSize(in.MaxResults)
	if err != nil {
		return nil, err
	}
	for i, f := range in.Filters {
		if err := checkFilter(i, f); err != nil {
			return nil, err
		}
	}
	switch in.SortOrder {
	case "", types.SortOrderTypeAsc, types.SortOrderTypeDesc:
	default:
		return nil, validation("Value '%s' at 'sortOrder' failed to satisfy constraint: Member must satisfy enum value set: [asc, desc]", in.SortOrder)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.purge(call.Scope(), call.Now)
	var entries []types.SecretListEntry
	for _, s := range b.secrets.Of(call) {
		if s.deletion != nil && !aws.ToBool(in.IncludePlannedDeletion) {
			continue
		}
		e := b.entry(s)
		if matches(e, in.Filters) {
			entries = append(entries, e)
		}
	}
	slices.SortFunc(entries, func(x, y types.SecretListEntry) int {
		c := 0
		switch in.SortBy {
		case types.SortByTypeName:
		case types.SortByTypeLastChangedDate:
			c = aws.ToTime(x.LastChangedDate).Compare(aws.ToTime(y.LastChangedDate))
		case types.SortByTypeLastAccessedDate:
			c = aws.ToTime(x.LastAccessedDate).Compare(aws.ToTime(y.LastAccessedDate))
		default:
			c = aws.ToTime(x.CreatedDate).Compare(aws.ToTime(y.CreatedDate))
		}
		c = cmp.Or(c, strings.Compare(aws.ToString(x.Name), aws.ToString(y.Name)))
		if in.SortOrder == types.SortOrderTypeDesc {
			return -c
		}
		return c
	})
	page, next, ok := core.Page(entries, aws.ToString(in.NextToken), size)
	if !ok {
		return nil, invalidNextToken()
	}
	out := &secretsmanager.ListSecretsOutput{SecretList: page}
	if next != "" {
		out.NextToken = aws.String(next)
	}
	return out, nil
}

// checkFilter returns the error for the i-th filter of a ListSecrets request when its key is
// unknown or its values are not 1 to 10 strings of at most 512 characters.
func checkFilter(i int, f types.Filter) error {
	if !slices.Contains(types.FilterNameStringType("").Values(), f.Key) {
		return validation("Value '%s' at 'filters.%d.member.key' failed to satisfy constraint: Member must satisfy enum value set: [description, name, tag-key, tag-value, primary-region, owning-service, all]", f.Key, i+1)
	}
	if len(f.Values) < 1 || len(f.Values) > 10 {
		return validation("Value at 'filters.%d.member.values' failed to satisfy constraint: Member must have length between 1 and 10", i+1)
	}
	for _, v := range f.Values {
		if len(v) > 512 {
			return validation("Value at 'filters.%d.member.values' failed to satisfy constraint: Member must have length less than or equal to 512", i+1)
		}
	}
	return nil
}

// matches reports whether a secret passes every filter. Within a filter a secret passes when
// one of its attributes matches one of the values and none matches a value negated with "!"
// (ListSecrets, Filter): name, tag-key, tag-value and primary-region match case-sensitive
// prefixes, description a prefix in any case, and all every word of the value anywhere in the
// name, description or tags, in any case. No secret is owned by another service.
func matches(e types.SecretListEntry, filters []types.Filter) bool {
	for _, f := range filters {
		var attrs []string
		match := strings.HasPrefix
		switch f.Key {
		case types.FilterNameStringTypeName:
			attrs = []string{aws.ToString(e.Name)}
		case types.FilterNameStringTypeDescription:
			attrs, match = []string{aws.ToString(e.Description)}, foldPrefix
		case types.FilterNameStringTypeTagKey:
			for _, t := range e.Tags {
				attrs = append(attrs, aws.ToString(t.Key))
			}
		case types.FilterNameStringTypeTagValue:
			for _, t := range e.Tags {
				attrs = append(attrs, aws.ToString(t.Value))
			}
		case types.FilterNameStringTypePrimaryRegion:
			if e.PrimaryRegion != nil {
				attrs = []string{*e.PrimaryRegion}
			}
		case types.FilterNameStringTypeAll:
			attrs, match = []string{aws.ToString(e.Name), aws.ToString(e.Description)}, allWords
			for _, t := range e.Tags {
				attrs = append(attrs, aws.ToString(t.Key), aws.ToString(t.Value))
			}
		}
		if !passes(attrs, f.Values, match) {
			return false
		}
	}
	return true
}

// passes reports whether attributes match one of the plain values and none of the negated ones.
func passes(attrs, values []string, match func(attr, value string) bool) bool {
	hit := func(value string) bool {
		return slices.ContainsFunc(attrs, func(a string) bool { return match(a, value) })
	}
	plain, matched := 0, false
	for _, v := range values {
		if neg, ok := strings.CutPrefix(v, "!"); ok {
			if hit(neg) {
				return false
			}
			continue
		}
		plain++
		matched = matched || hit(v)
	}
	return plain == 0 || matched
}

// foldPrefix reports whether attr starts with value, in any case.
func foldPrefix(attr, value string) bool {
	return len(attr) >= len(value) && strings.EqualFold(attr[:len(value)], value)
}

// allWords reports whether every word of value occurs in attr, in any case.
func allWords(attr, value string) bool {
	attr = strings.ToLower(attr)
	for _, w := range strings.Fields(strings.ToLower(value)) {
		if !strings.Contains(attr, w) {
			return false
		}
	}
	return true
}

// interval returns the time between rotations that rotation rules set, from
// AutomaticallyAfterDays or a rate() expression; ok is false for a cron() schedule.
func interval(r *types.RotationRulesType) (every time.Duration, ok bool) {
	if r.AutomaticallyAfterDays != nil {
		return time.Duration(*r.AutomaticallyAfterDays) * 24 * time.Hour, true
	}
	n, unit, ok := parseRate(aws.ToString(r.ScheduleExpression))
	if !ok {
		return 0, false
	}
	if unit == "day" {
		return time.Duration(n) * 24 * time.Hour, true
	}
	return time.Duration(n) * time.Hour, true
}
