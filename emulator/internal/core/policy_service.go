package core

import "strings"

// serviceStatement is what ServiceAllowed reads of a statement of a resource-based policy.
type serviceStatement struct {
	Effect    string
	Principal any
	Action    any
	Resource  any
	Condition map[string]map[string]any
}

// ServiceAllowed reports whether a resource-based policy (a queue's, a topic's) lets an AWS
// service principal, such as "s3.amazonaws.com", perform action (such as "sqs:SendMessage") on
// resource on behalf of sourceARN of account sourceAccount, as AWS checks when a service delivers to a resource of the
// customer's: a statement whose Principal is "*", {"AWS": "*"} or names the service, whose
// Action matches (case aside, with * and ? wildcards) and whose Resource, when it has one,
// matches. An explicit Deny wins over every Allow. Of the conditions, aws:SourceArn (ArnEquals,
// ArnLike, StringEquals, StringLike) is checked against sourceARN and aws:SourceAccount
// (StringEquals, StringLike) against sourceAccount; a statement with any other condition
// does not match, since the request context its keys come from is not modelled.
func ServiceAllowed(policy, service, action, resource, sourceARN, sourceAccount string) bool {
	statements, _ := PolicyStatements[serviceStatement](policy)
	allowed := false
	for _, st := range statements {
		if !st.matches(service, action, resource, sourceARN, sourceAccount) {
			continue
		}
		switch st.Effect {
		case "Deny":
			return false
		case "Allow":
			allowed = true
		}
	}
	return allowed
}

// matches reports whether the statement applies to the service's action on resource for
// sourceARN of account, its Effect aside.
func (st serviceStatement) matches(service, action, resource, sourceARN, account string) bool {
	if !servicePrincipal(st.Principal, service) || !anyMatches(st.Action, strings.ToLower(action), strings.ToLower) {
		return false
	}
	if st.Resource != nil && !anyMatches(st.Resource, resource, nil) {
		return false
	}
	for op, keys := range st.Condition {
		for key, values := range keys {
			var value string
			switch {
			case strings.EqualFold(key, "aws:SourceArn"):
				value = sourceARN
			case strings.EqualFold(key, "aws:SourceAccount"):
				value = account
			default:
				return false
			}
			switch op {
			case "ArnEquals", "StringEquals":
				if !anyEquals(values, value) {
					return false
				}
			case "ArnLike", "StringLike":
				if !anyMatches(values, value, nil) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// servicePrincipal reports whether a statement's Principal covers the service: "*", an AWS
// principal "*", or the service among its Service principals.
func servicePrincipal(principal any, service string) bool {
	if p, ok := principal.(map[string]any); ok {
		return everyone(p["AWS"]) || anyEquals(p["Service"], service)
	}
	return everyone(principal)
}

// anyEquals reports whether element, a string or a list of strings, holds value.
func anyEquals(element any, value string) bool {
	switch e := element.(type) {
	case string:
		return e == value
	case []any:
		for _, one := range e {
			if s, ok := one.(string); ok && s == value {
				return true
			}
		}
	}
	return false
}
