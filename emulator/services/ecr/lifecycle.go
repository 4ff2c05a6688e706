package ecr

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// lifecycleRule is one rule of a lifecycle policy, as the policy's JSON gives it (Amazon ECR
// User Guide, Lifecycle policy properties).
type lifecycleRule struct {
	RulePriority *json.Number `json:"rulePriority"`
	Description  *string      `json:"description"`
	Selection    *struct {
		TagStatus      string       `json:"tagStatus"`
		TagPrefixList  []string     `json:"tagPrefixList"`
		TagPatternList []string     `json:"tagPatternList"`
		CountType      string       `json:"countType"`
		CountUnit      *string      `json:"countUnit"`
		CountNumber    *json.Number `json:"countNumber"`
	} `json:"selection"`
	Action *struct {
		Type string `json:"type"`
	} `json:"action"`
}

// badLifecycle is AWS's answer to a lifecycle policy that breaks its grammar.
func badLifecycle(format string, args ...any) error {
	return invalidParameter("LifecyclePolicyText", "Lifecycle policy validation failure: "+fmt.Sprintf(format, args...))
}

// checkLifecycle returns the error AWS gives a lifecycle policy text, or nil. It checks that the
// text is 100 to 30,720 characters of JSON with only a non-empty "rules" list, and that every
// rule has a unique whole rulePriority of at least 1, a selection whose tagStatus is tagged
// (with a tagPrefixList or a tagPatternList, not both), untagged or any (with neither), whose
// countType is imageCountMoreThan (without countUnit) or sinceImagePushed (with countUnit days),
// and whose countNumber is a whole number of at least 1, and the action expire; a rule with
// tagStatus any must be the only one and have the highest rulePriority.
func checkLifecycle(text string) error {
	if n := len(text); n < 100 || n > 30720 {
		return invalidParameter("lifecyclePolicyText", fmt.Sprintf("must have length between 100 and 30720, got %d", n))
	}
	var doc struct {
		Rules []lifecycleRule `json:"rules"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return badLifecycle("the policy is not a valid lifecycle policy document: %v", err)
	}
	if len(doc.Rules) == 0 {
		return badLifecycle("object has missing required properties ([\"rules\"])")
	}
	priorities := map[int64]bool{}
	var anyPriority, highest int64
	for _, r := range doc.Rules {
		p, err := wholeNumber(r.RulePriority, "rulePriority")
		if err != nil {
			return err
		}
		if priorities[p] {
			return badLifecycle("rulePriority %d is used by more than one rule", p)
		}
		priorities[p] = true
		highest = max(highest, p)
		if err := checkRule(r); err != nil {
			return err
		}
		if r.Selection.TagStatus == "any" {
			if anyPriority != 0 {
				return badLifecycle("only one rule may have tagStatus any")
			}
			anyPriority = p
		}
	}
	if anyPriority != 0 && anyPriority != highest {
		return badLifecycle("the rule with tagStatus any must have the highest rulePriority")
	}
	return nil
}

// wholeNumber returns a rule's number named name, which must be a whole number of at least 1.
func wholeNumber(n *json.Number, name string) (int64, error) {
	if n == nil {
		return 0, badLifecycle("object has missing required properties ([%q])", name)
	}
	v, err := n.Int64()
	if err != nil || v < 1 {
		return 0, badLifecycle("%s must be a whole number of at least 1, got %s", name, n.String())
	}
	return v, nil
}

// checkRule checks one rule's selection and action.
func checkRule(r lifecycleRule) error {
	s := r.Selection
	if s == nil || r.Action == nil {
		return badLifecycle("object has missing required properties ([\"action\",\"selection\"])")
	}
	switch s.TagStatus {
	case "tagged":
		if (len(s.TagPrefixList) == 0) == (len(s.TagPatternList) == 0) {
			return badLifecycle("a rule with tagStatus tagged needs exactly one of tagPrefixList and tagPatternList, not empty")
		}
	case "untagged", "any":
		if len(s.TagPrefixList) > 0 || len(s.TagPatternList) > 0 {
			return badLifecycle("tagPrefixList and tagPatternList are only allowed with tagStatus tagged")
		}
	default:
		return badLifecycle("tagStatus must be one of tagged, untagged, any, got %q", s.TagStatus)
	}
	switch s.CountType {
	case "imageCountMoreThan":
		if s.CountUnit != nil {
			return badLifecycle("countUnit is not allowed with countType imageCountMoreThan")
		}
	case "sinceImagePushed":
		if aws.ToString(s.CountUnit) != "days" {
			return badLifecycle("countType sinceImagePushed needs countUnit days")
		}
	default:
		return badLifecycle("countType must be one of imageCountMoreThan, sinceImagePushed, got %q", s.CountType)
	}
	if _, err := wholeNumber(s.CountNumber, "countNumber"); err != nil {
		return err
	}
	if r.Action.Type != "expire" {
		return badLifecycle("action type must be expire, got %q", r.Action.Type)
	}
	return nil
}

// lifecycleNotFound is AWS's answer to a repository without a lifecycle policy.
func lifecycleNotFound(r *repository) error {
	return core.Errorf("LifecyclePolicyNotFoundException",
		"Lifecycle policy does not exist for the repository with name '%s' in the registry with id '%s'", r.name, r.registryID)
}

// putLifecyclePolicy sets a repository's lifecycle policy.
func (b *Backend) putLifecyclePolicy(call *core.Call, in *ecr.PutLifecyclePolicyInput) (*ecr.PutLifecyclePolicyOutput, error) {
	return putDocument[ecr.PutLifecyclePolicyOutput](b, lifecyclePolicy, call, in.RegistryId, in.RepositoryName, in.LifecyclePolicyText)
}

// getLifecyclePolicy returns a repository's lifecycle policy. It has never been evaluated, so
// the answer has no lastEvaluatedAt.
func (b *Backend) getLifecyclePolicy(call *core.Call, in *ecr.GetLifecyclePolicyInput) (*ecr.GetLifecyclePolicyOutput, error) {
	return readDocument[ecr.GetLifecyclePolicyOutput](b, lifecyclePolicy, call, in.RegistryId, in.RepositoryName, false)
}

// deleteLifecyclePolicy removes a repository's lifecycle policy and returns it.
func (b *Backend) deleteLifecyclePolicy(call *core.Call, in *ecr.DeleteLifecyclePolicyInput) (*ecr.DeleteLifecyclePolicyOutput, error) {
	return readDocument[ecr.DeleteLifecyclePolicyOutput](b, lifecyclePolicy, call, in.RegistryId, in.RepositoryName, true)
}
