// Package queuepolicy reads and writes SQS queue policies shared by two owners: the SQSQueue,
// whose spec.policy gives the user's statements, and the SNSTopics that subscribe the queue,
// each of which keeps one statement (its Sid starts with SidPrefix) that lets the topic send.
package queuepolicy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/runner-codes/infra-operator/shared/policy"
)

// SidPrefix starts the Sid of every statement an SNSTopic keeps in a queue's policy.
const SidPrefix = "InfraOperatorSNS"

// defaultVersion is the policy language version of policies the operator writes.
const defaultVersion = "2012-10-17"

// Document is a parsed policy: its top-level members, and its statements as a list.
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
	out := map[string]any{}
	for k, v := range d.Fields {
		out[k] = v
	}
	if _, ok := out["Version"]; !ok {
		out["Version"] = defaultVersion
	}
	out["Statement"] = d.Statements
	b, _ := json.Marshal(out) // Values decoded from JSON always encode.
	return string(b)
}

// Equal reports whether two documents say the same, ignoring the order of statements and
// whether a single statement is written as an object or a list.
func Equal(a, b Document) bool {
	if !reflect.DeepEqual(normalFields(a.Fields), normalFields(b.Fields)) || len(a.Statements) != len(b.Statements) {
		return false
	}
	return reflect.DeepEqual(sorted(a.Statements), sorted(b.Statements))
}

// normalFields treats an empty field map and a nil one alike.
func normalFields(f map[string]any) map[string]any {
	if len(f) == 0 {
		return nil
	}
	return f
}

// sorted returns the statements' canonical texts (package policy), ordered.
func sorted(list []map[string]any) []string {
	out := make([]string, 0, len(list))
	for _, st := range list {
		out = append(out, policy.CanonicalStatement(st))
	}
	slices.Sort(out)
	return out
}

// IsTopicStatement reports whether st is a statement an SNSTopic keeps.
func IsTopicStatement(st map[string]any) bool {
	sid, _ := st["Sid"].(string)
	return strings.HasPrefix(sid, SidPrefix)
}

// TopicStatements returns the statements of d that SNSTopics keep.
func (d Document) TopicStatements() []map[string]any {
	var out []map[string]any
	for _, st := range d.Statements {
		if IsTopicStatement(st) {
			out = append(out, st)
		}
	}
	return out
}

// UserStatements returns the statements of d that no SNSTopic keeps.
func (d Document) UserStatements() []map[string]any {
	var out []map[string]any
	for _, st := range d.Statements {
		if !IsTopicStatement(st) {
			out = append(out, st)
		}
	}
	return out
}

// Merge returns the user's document with the topic statements added: the policy a queue
// should have when its spec says user and topics keep statements in it.
func Merge(user Document, topicStatements []map[string]any) Document {
	out := Document{Fields: user.Fields, Statements: append(user.UserStatements(), topicStatements...)}
	if len(user.Statements) == 0 && len(out.Statements) > 0 {
		out.Fields = map[string]any{"Version": defaultVersion}
	}
	return out
}

// Sid returns the Sid of the statement that lets the topic with topicARN send to a queue.
func Sid(topicARN string) string {
	sum := sha256.Sum256([]byte(topicARN))
	return SidPrefix + hex.EncodeToString(sum[:8])
}

// TopicStatement returns the statement that lets the topic with topicARN send to the queue
// with queueARN, and nothing else.
func TopicStatement(topicARN, queueARN string) map[string]any {
	// Built as JSON values so that it compares equal to the same statement read back.
	return map[string]any{
		"Sid":       Sid(topicARN),
		"Effect":    "Allow",
		"Principal": map[string]any{"Service": "sns.amazonaws.com"},
		"Action":    "sqs:SendMessage",
		"Resource":  queueARN,
		"Condition": map[string]any{"ArnEquals": map[string]any{"aws:SourceArn": topicARN}},
	}
}

// WithStatement returns d with st in place of any statement of the same Sid.
func (d Document) WithStatement(st map[string]any) Document {
	out := d.Without(st["Sid"].(string))
	if len(out.Statements) == 0 && len(out.Fields) == 0 {
		out.Fields = map[string]any{"Version": defaultVersion}
	}
	out.Statements = append(out.Statements, st)
	return out
}

// Without returns d without the statement with the given Sid. A document left without
// statements is empty: the queue then has no policy.
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

// Has reports whether d holds st exactly.
func (d Document) Has(st map[string]any) bool {
	for _, have := range d.Statements {
		if reflect.DeepEqual(have, st) {
			return true
		}
	}
	return false
}
