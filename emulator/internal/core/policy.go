package core

import "encoding/json"

// policyStatement is what PublicPolicy reads of a policy statement.
type policyStatement struct {
	Effect    string
	Principal any
	Condition map[string]any
}

// PublicPolicy reports whether a resource policy grants access to everyone: a statement (in a
// list, or alone) that allows "Principal": "*" (or {"AWS": "*"}, or "*" in a list of AWS
// principals) without a Condition. S3's and
// Secrets Manager's BlockPublicPolicy refuse such policies, and S3's policy status reports them
// public. Simplification: AWS's analysis also accepts some conditions as restricting (a fixed
// source VPC, account or IP range) and treats others as public.
func PublicPolicy(policy string) bool {
	statements, _ := PolicyStatements[policyStatement](policy)
	for _, st := range statements {
		if st.Effect != "Allow" || len(st.Condition) > 0 {
			continue
		}
		if p, ok := st.Principal.(map[string]any); ok {
			st.Principal = p["AWS"]
		}
		if everyone(st.Principal) {
			return true
		}
	}
	return false
}

// PolicyStatements returns the statements of a JSON policy document, S being what the caller
// reads of one: the document's Statement is a list of them or one statement alone. ok is false
// when the text is not a JSON document with a Statement of either form.
func PolicyStatements[S any](policy string) (statements []S, ok bool) {
	var doc struct {
		Statement json.RawMessage
	}
	if json.Unmarshal([]byte(policy), &doc) != nil || len(doc.Statement) == 0 {
		return nil, false
	}
	if json.Unmarshal(doc.Statement, &statements) == nil {
		return statements, true
	}
	var one S
	if json.Unmarshal(doc.Statement, &one) != nil {
		return nil, false
	}
	return []S{one}, true
}

// everyone reports whether a principal, "*" or a list of them, includes "*".
func everyone(principal any) bool {
	switch p := principal.(type) {
	case string:
		return p == "*"
	case []any:
		for _, one := range p {
			if one == "*" {
				return true
			}
		}
	}
	return false
}
