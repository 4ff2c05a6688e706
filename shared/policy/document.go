package policy

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// ReservedSidPrefix starts the Sid of every statement the operator grants in a policy that
// another object owns: an SNSTopic's statement in a queue's policy, a CloudFrontDistribution's
// statement in a bucket's policy. The owner of the policy keeps such statements beside its own
// and refuses them in its spec.
const ReservedSidPrefix = "InfraOperator"

// Document is a parsed policy shared by several writers: its top-level members, and its
// statements as a list.
type Document struct {
	// Fields are the members other than Statement (Version, Id).
	Fields map[string]any
	// Statements are the statements, each a JSON object.
	Statements []map[string]any
}

// Parse reads a policy document; "" is an empty document. A single statement object is read as
// a list of one, as IAM reads it.
func Parse(policy string) (Document, error) {
	doc := Document{Fields: map[string]any{}}
	if strings.TrimSpace(policy) == "" {
		return doc, nil
	}
	if err := json.Unmarshal([]byte(policy), &doc.Fields); err != nil {
		return Document{}, fmt.Errorf("the policy is not a JSON object: %w", err)
	}
	raw, ok := doc.Fields["Statement"]
	delete(doc.Fields, "Statement")
	if !ok {
		return doc, nil
	}
	switch s := raw.(type) {
	case map[string]any:
		doc.Statements = []map[string]any{s}
	case []any:
		for _, item := range s {
			st, ok := item.(map[string]any)
			if !ok {
				return Document{}, fmt.Errorf("the policy's Statement list holds a %T, not an object", item)
			}
			doc.Statements = append(doc.Statements, st)
		}
	default:
		return Document{}, fmt.Errorf("the policy's Statement is a %T, not an object or a list", raw)
	}
	return doc, nil
}

// String returns the document as JSON; a document without statements or fields is "".
func (d Document) String() string {
	if len(d.Statements) == 0 && len(d.Fields) == 0 {
		return ""
	}
	out := maps.Clone(d.Fields)
	if out == nil {
		out = map[string]any{}
	}
	if _, ok := out["Version"]; !ok {
		out["Version"] = DefaultVersion
	}
	out["Statement"] = d.Statements
	return mustJSON(out)
}

// Equal reports whether two documents say the same, ignoring the order of statements and
// whether a single statement is written as an object or a list.
func Equal(a, b Document) bool {
	if !reflect.DeepEqual(normalFields(a.Fields), normalFields(b.Fields)) || len(a.Statements) != len(b.Statements) {
		return false
	}
	return slices.Equal(sortedStatements(a.Statements), sortedStatements(b.Statements))
}

// normalFields treats an empty field map and a nil one alike.
func normalFields(f map[string]any) map[string]any {
	if len(f) == 0 {
		return nil
	}
	return f
}

// sortedStatements returns the statements' canonical texts, ordered.
func sortedStatements(list []map[string]any) []string {
	out := make([]string, 0, len(list))
	for _, st := range list {
		out = append(out, CanonicalStatement(st))
	}
	slices.Sort(out)
	return out
}

// HasSidPrefix reports whether st's Sid starts with prefix.
func HasSidPrefix(st map[string]any, prefix string) bool {
	sid, _ := st["Sid"].(string)
	return strings.HasPrefix(sid, prefix)
}

// Reserved returns the statements of d whose Sid starts with prefix: those another writer keeps.
func (d Document) Reserved(prefix string) []map[string]any {
	var out []map[string]any
	for _, st := range d.Statements {
		if HasSidPrefix(st, prefix) {
			out = append(out, st)
		}
	}
	return out
}

// Unreserved returns the statements of d whose Sid does not start with prefix: the owner's.
func (d Document) Unreserved(prefix string) []map[string]any {
	var out []map[string]any
	for _, st := range d.Statements {
		if !HasSidPrefix(st, prefix) {
			out = append(out, st)
		}
	}
	return out
}

// Merge returns the owner's document, without any statement whose Sid starts with prefix, with
// the reserved statements added: the policy a resource should have when its owner and other
// writers keep statements in it.
func Merge(owner Document, prefix string, reserved []map[string]any) Document {
	out := Document{Fields: owner.Fields, Statements: append(owner.Unreserved(prefix), reserved...)}
	if len(owner.Statements) == 0 && len(out.Statements) > 0 {
		out.Fields = map[string]any{"Version": DefaultVersion}
	}
	return out
}

// With returns d with st in place of any statement of the same Sid.
func (d Document) With(st map[string]any) Document {
	sid, _ := st["Sid"].(string)
	out := d.Without(sid)
	if len(out.Statements) == 0 && len(out.Fields) == 0 {
		out.Fields = map[string]any{"Version": DefaultVersion}
	}
	out.Statements = append(out.Statements, st)
	return out
}

// Without returns d without the statement with the given Sid. A document left without
// statements is empty: the resource then has no policy.
func (d Document) Without(sid string) Document {
	out := Document{Fields: d.Fields}
	for _, st := range d.Statements {
		if s, _ := st["Sid"].(string); s != sid {
			out.Statements = append(out.Statements, st)
		}
	}
	if len(out.Statements) == 0 {
		out.Fields = nil
	}
	return out
}

// Has reports whether d holds st, compared by meaning (CanonicalStatement).
func (d Document) Has(st map[string]any) bool {
	want := CanonicalStatement(st)
	return slices.ContainsFunc(d.Statements, func(have map[string]any) bool { return CanonicalStatement(have) == want })
}
