package elbv2

import (
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
)

// Limits on a rule's conditions (Quotas for your Application Load Balancers: condition values
// per rule, condition wildcards per rule; conditions in the RuleCondition reference).
const (
	maxConditionValues    = 5
	maxConditionWildcards = 5
	maxConditionValueLen  = 128
	maxHeaderNameLen      = 40
)

// conditionValue matches the characters AWS allows in the values of each condition field.
var conditionValue = map[string]*regexp.Regexp{
	"host-header":         regexp.MustCompile(`^[A-Za-z0-9.*?-]+$`),
	"path-pattern":        regexp.MustCompile(`^[A-Za-z0-9_\-.$/~"'@:+&*?]+$`),
	"http-request-method": regexp.MustCompile(`^[A-Z_-]+$`),
	"http-header":         regexp.MustCompile(`^[\x20-\x7e]+$`),
	"query-string":        regexp.MustCompile(`^[\x20-\x7e]+$`),
}

// singleConditions are the fields a rule may have at most one condition on.
var singleConditions = []string{"host-header", "path-pattern", "http-request-method", "source-ip"}

// checkConditions checks a rule's conditions and returns them as AWS describes them: host-header
// and path-pattern conditions given in the legacy Values form or in their Config form show both.
func checkConditions(in []types.RuleCondition) ([]types.RuleCondition, error) {
	if len(in) == 0 {
		return nil, validation("At least one condition must be specified")
	}
	out := make([]types.RuleCondition, 0, len(in))
	seen := map[string]bool{}
	values, wildcards := 0, 0
	for _, c := range in {
		field := aws.ToString(c.Field)
		if seen[field] && slices.Contains(singleConditions, field) {
			return nil, validation("A rule can only have one '%s' condition", field)
		}
		seen[field] = true
		checked, vals, err := checkCondition(field, c)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			return nil, validation("A '%s' condition must have at least one value", field)
		}
		for _, v := range vals {
			if field != "source-ip" && field != "http-request-method" {
				wildcards += strings.Count(v, "*") + strings.Count(v, "?")
			}
		}
		values += len(vals)
		out = append(out, checked)
	}
	if values > maxConditionValues {
		return nil, validation("A rule can only have '%d' condition values", maxConditionValues)
	}
	if wildcards > maxConditionWildcards {
		return nil, validation("A rule can only have '%d' wildcards in its condition values", maxConditionWildcards)
	}
	return out, nil
}

// checkCondition checks one condition of field and returns it as AWS describes it with the
// values it counts against the rule's limits.
func checkCondition(field string, c types.RuleCondition) (types.RuleCondition, []string, error) {
	out := types.RuleCondition{Field: c.Field}
	var vals []string
	switch field {
	case "host-header", "path-pattern":
		vals = c.Values
		var cfg []string
		if field == "host-header" && c.HostHeaderConfig != nil {
			cfg = c.HostHeaderConfig.Values
		}
		if field == "path-pattern" && c.PathPatternConfig != nil {
			cfg = c.PathPatternConfig.Values
		}
		if len(vals) > 0 && cfg != nil && !slices.Equal(vals, cfg) {
			return out, nil, validation("You cannot specify both 'Values' and a '%s' configuration with other values", field)
		}
		if len(vals) == 0 {
			vals = cfg
		}
		out.Values = slices.Clone(vals)
		if field == "host-header" {
			out.HostHeaderConfig = &types.HostHeaderConditionConfig{Values: slices.Clone(vals)}
		} else {
			out.PathPatternConfig = &types.PathPatternConditionConfig{Values: slices.Clone(vals)}
		}
	case "http-header":
		if len(c.Values) > 0 || c.HttpHeaderConfig == nil {
			return out, nil, validation("A 'http-header' condition must be specified with an HTTP header configuration")
		}
		name := aws.ToString(c.HttpHeaderConfig.HttpHeaderName)
		if name == "" || len(name) > maxHeaderNameLen || !conditionValue[field].MatchString(name) {
			return out, nil, validation("HTTP header name '%s' must be 1 to %d printable characters", name, maxHeaderNameLen)
		}
		vals = c.HttpHeaderConfig.Values
		out.HttpHeaderConfig = &types.HttpHeaderConditionConfig{HttpHeaderName: aws.String(name), Values: slices.Clone(vals)}
	case "http-request-method":
		if len(c.Values) > 0 || c.HttpRequestMethodConfig == nil {
			return out, nil, validation("A 'http-request-method' condition must be specified with an HTTP request method configuration")
		}
		vals = c.HttpRequestMethodConfig.Values
		out.HttpRequestMethodConfig = &types.HttpRequestMethodConditionConfig{Values: slices.Clone(vals)}
	case "query-string":
		if len(c.Values) > 0 || c.QueryStringConfig == nil {
			return out, nil, validation("A 'query-string' condition must be specified with a query string configuration")
		}
		for _, kv := range c.QueryStringConfig.Values {
			if aws.ToString(kv.Value) == "" {
				return out, nil, validation("A query string condition value must have a value")
			}
			for _, part := range []*string{kv.Key, kv.Value} {
				if part != nil {
					if err := checkValue(field, *part); err != nil {
						return out, nil, err
					}
				}
			}
			vals = append(vals, aws.ToString(kv.Key)+aws.ToString(kv.Value))
		}
		out.QueryStringConfig = &types.QueryStringConditionConfig{Values: slices.Clone(c.QueryStringConfig.Values)}
		return out, vals, nil
	case "source-ip":
		if len(c.Values) > 0 || c.SourceIpConfig == nil {
			return out, nil, validation("A 'source-ip' condition must be specified with a source IP configuration")
		}
		vals = c.SourceIpConfig.Values
		for _, v := range vals {
			if _, err := netip.ParsePrefix(v); err != nil {
				return out, nil, validation("Source IP '%s' must be an IPv4 or IPv6 address in CIDR notation", v)
			}
		}
		out.SourceIpConfig = &types.SourceIpConditionConfig{Values: slices.Clone(vals)}
		return out, vals, nil
	default:
		return out, nil, validation("Condition field '%s' must be one of '[http-header, http-request-method, host-header, path-pattern, query-string, source-ip]'", field)
	}
	for _, v := range vals {
		if err := checkValue(field, v); err != nil {
			return out, nil, err
		}
	}
	return out, vals, nil
}

// checkValue checks one value of a condition on field: its length and characters.
func checkValue(field, v string) error {
	if v == "" || len(v) > maxConditionValueLen || !conditionValue[field].MatchString(v) {
		return validation("Condition value '%s' of field '%s' must be 1 to %d characters that the field allows", v, field, maxConditionValueLen)
	}
	return nil
}
