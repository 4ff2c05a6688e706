package core

import "strings"

// Decision is what identity-based policies decide of a request: an action on a resource.
type Decision int

// The decisions of policy evaluation (IAM User Guide, Policy evaluation logic).
const (
	// ImplicitDeny is the decision when no statement allows the request and none denies it.
	ImplicitDeny Decision = iota
	// Allowed is the decision when a statement allows the request and none denies it.
	Allowed
	// ExplicitDeny is the decision when a statement denies the request, whatever others allow.
	ExplicitDeny
)

// identityStatement is what Evaluate reads of a statement of an identity-based policy. Action,
// NotAction, Resource and NotResource are a string or a list of strings.
type identityStatement struct {
	Effect                string
	Action, NotAction     any
	Resource, NotResource any
	Condition             map[string]any
}

// Evaluate decides whether the identity-based policy documents together allow action (such as
// "sqs:ReceiveMessage") on resource (an ARN): an explicit Deny in any of them wins over every
// Allow, and without an Allow the request is implicitly denied. A statement matches when its
// Action matches the action (or its NotAction does not) and its Resource matches the resource
// (or its NotResource does not). Actions are compared without regard to case, resources with
// it; both take the wildcards * (any run of characters) and ? (one character). A document that
// is not a policy has no statements.
//
// Simplification: a statement with a Condition never matches, whatever its Effect, since the
// request context its keys would be read from (source IP, tags, principal) is not modelled.
// Policy variables (${aws:username}) are compared as text.
func Evaluate(documents []string, action, resource string) Decision {
	decision := ImplicitDeny
	for _, doc := range documents {
		statements, _ := PolicyStatements[identityStatement](doc)
		for _, st := range statements {
			if len(st.Condition) > 0 || !st.matches(action, resource) {
				continue
			}
			switch st.Effect {
			case "Deny":
				return ExplicitDeny
			case "Allow":
				decision = Allowed
			}
		}
	}
	return decision
}

// matches reports whether the statement applies to action on resource, its Effect aside.
func (st identityStatement) matches(action, resource string) bool {
	foldAction := strings.ToLower(action)
	actionOK := st.Action != nil && anyMatches(st.Action, foldAction, strings.ToLower) ||
		st.NotAction != nil && !anyMatches(st.NotAction, foldAction, strings.ToLower)
	resourceOK := st.Resource != nil && anyMatches(st.Resource, resource, nil) ||
		st.NotResource != nil && !anyMatches(st.NotResource, resource, nil)
	return actionOK && resourceOK
}

// anyMatches reports whether one of the patterns of element, a string or a list of strings,
// matches value; fold, when not nil, is applied to each pattern first.
func anyMatches(element any, value string, fold func(string) string) bool {
	var patterns []any
	switch e := element.(type) {
	case string:
		patterns = []any{e}
	case []any:
		patterns = e
	}
	for _, p := range patterns {
		pattern, ok := p.(string)
		if !ok {
			continue
		}
		if fold != nil {
			pattern = fold(pattern)
		}
		if wildcardMatch(pattern, value) {
			return true
		}
	}
	return false
}

// wildcardMatch reports whether value matches pattern, where * stands for any run of
// characters (none included) and ? for exactly one, as IAM policies match actions and ARNs.
func wildcardMatch(pattern, value string) bool {
	p, v := []rune(pattern), []rune(value)
	// star and resume are where the last * was seen in the pattern and where, in the value, the
	// run it stands for would end if the match after it fails: backtracking extends that run.
	star, resume := -1, 0
	i, j := 0, 0
	for j < len(v) {
		switch {
		case i < len(p) && (p[i] == '?' || p[i] == v[j]):
			i, j = i+1, j+1
		case i < len(p) && p[i] == '*':
			star, resume = i, j
			i++
		case star >= 0:
			resume++
			i, j = star+1, resume
		default:
			return false
		}
	}
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}
