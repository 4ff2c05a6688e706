package sqs

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// policyDocument is the part of an IAM policy document that queue policies use.
type policyDocument struct {
	Statement statements `json:"Statement"`
}

type statement struct {
	Effect    string          `json:"Effect"`
	Principal json.RawMessage `json:"Principal"`
	Action    stringList      `json:"Action"`
	Resource  stringList      `json:"Resource"`
	Condition map[string]map[string]stringList
}

// statements accepts a single statement or a list, as IAM does.
type statements []statement

// UnmarshalJSON reads a statement or a list of statements.
func (s *statements) UnmarshalJSON(b []byte) (err error) {
	*s, err = oneOrMany[statement](b, '{')
	return err
}

// stringList accepts a string or a list of strings, as IAM does.
type stringList []string

// UnmarshalJSON reads a string or a list of strings.
func (l *stringList) UnmarshalJSON(b []byte) (err error) {
	*l, err = oneOrMany[string](b, '"')
	return err
}

// oneOrMany decodes b, one JSON value of T (which starts with first) or a list of them, as a
// list.
func oneOrMany[T any](b []byte, first byte) ([]T, error) {
	if len(b) > 0 && b[0] == first {
		var one T
		if err := json.Unmarshal(b, &one); err != nil {
			return nil, fmt.Errorf("decode one policy element: %w", err)
		}
		return []T{one}, nil
	}
	var many []T
	if err := json.Unmarshal(b, &many); err != nil {
		return many, fmt.Errorf("decode a list of policy elements: %w", err)
	}
	return many, nil
}

// allowsServiceSend reports whether policy lets the AWS service principal (for example
// "sns.amazonaws.com") call sqs:SendMessage on the queue with queueARN on behalf of sourceARN.
// An explicit Deny wins, as in IAM.
func allowsServiceSend(policy, service, queueARN, sourceARN string) bool {
	if policy == "" {
		return false
	}
	var doc policyDocument
	if err := json.Unmarshal([]byte(policy), &doc); err != nil {
		return false
	}
	allowed := false
	for _, st := range doc.Statement {
		if !st.matches(service, queueARN, sourceARN) {
			continue
		}
		if st.Effect == "Deny" {
			return false
		}
		if st.Effect == "Allow" {
			allowed = true
		}
	}
	return allowed
}

func (st statement) matches(service, queueARN, sourceARN string) bool {
	if !principalMatches(st.Principal, service) || !anyGlob(st.Action, "sqs:SendMessage") {
		return false
	}
	if len(st.Resource) > 0 && !anyGlob(st.Resource, queueARN) {
		return false
	}
	for op, conds := range st.Condition {
		for key, values := range conds {
			if !strings.EqualFold(key, "aws:SourceArn") {
				continue
			}
			switch op {
			case "ArnEquals", "StringEquals":
				if !contains(values, sourceARN) {
					return false
				}
			case "ArnLike", "StringLike":
				if !anyGlob(values, sourceARN) {
					return false
				}
			}
		}
	}
	return true
}

func principalMatches(raw json.RawMessage, service string) bool {
	var star string
	if json.Unmarshal(raw, &star) == nil {
		return star == "*"
	}
	var p map[string]stringList
	if json.Unmarshal(raw, &p) != nil {
		return false
	}
	return contains(p["Service"], service) || contains(p["AWS"], "*")
}

func anyGlob(patterns []string, value string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(value)); ok || p == "*" {
			return true
		}
	}
	return false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
