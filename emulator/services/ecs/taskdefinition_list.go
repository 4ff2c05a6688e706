package ecs

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listTaskDefinitions lists the ARNs of the region's task definition revisions of a status
// (ACTIVE unless the request asks for INACTIVE or DELETE_IN_PROGRESS), of the family that
// familyPrefix names in full (AWS: "The full family name to filter the ListTaskDefinitions
// results with"), by family and revision (reversed for DESC), by pages of up to 100.
func (b *Backend) listTaskDefinitions(call *core.Call, in *ecs.ListTaskDefinitionsInput) (*ecs.ListTaskDefinitionsOutput, error) {
	size, err := pageSize(in.MaxResults, 100)
	if err != nil {
		return nil, err
	}
	status := in.Status
	if status == "" {
		status = types.TaskDefinitionStatusActive
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.ListTaskDefinitionsOutput, error) {
		arns := []string{}
		for _, family := range core.SortedKeys(r.families) {
			if in.FamilyPrefix != nil && family != *in.FamilyPrefix {
				continue
			}
			for _, t := range r.families[family] {
				if t.def.Status == status {
					arns = append(arns, t.arn())
				}
			}
		}
		if in.Sort == types.SortOrderDesc {
			slices.Reverse(arns)
		}
		page, next, err := paginate(arns, in.NextToken, size)
		if err != nil {
			return nil, err
		}
		return &ecs.ListTaskDefinitionsOutput{TaskDefinitionArns: append([]string{}, page...), NextToken: next}, nil
	})
}

// deleteTaskDefinitions asks for the deletion of up to 10 INACTIVE revisions, which become
// DELETE_IN_PROGRESS; a revision that does not exist or is still ACTIVE is a failure.
func (b *Backend) deleteTaskDefinitions(call *core.Call, in *ecs.DeleteTaskDefinitionsInput) (*ecs.DeleteTaskDefinitionsOutput, error) {
	if n := len(in.TaskDefinitions); n < 1 || n > 10 {
		return nil, invalidParameter("taskDefinitions cannot be empty and can have at most 10 elements.")
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.DeleteTaskDefinitionsOutput, error) {
		out := &ecs.DeleteTaskDefinitionsOutput{TaskDefinitions: []types.TaskDefinition{}, Failures: []types.Failure{}}
		for _, ref := range in.TaskDefinitions {
			t, ok := r.taskDefinitionOf(ref)
			switch {
			case !ok || !strings.Contains(ref, ":"):
				out.Failures = append(out.Failures, types.Failure{Arn: aws.String(ref), Reason: aws.String("The specified task definition does not exist. Specify a valid account, family, revision and try again.")})
			case t.def.Status == types.TaskDefinitionStatusActive:
				out.Failures = append(out.Failures, types.Failure{Arn: aws.String(t.arn()),
					Reason: aws.String("The specified task definition is still in ACTIVE status. Please deregister the target and try again.")})
			default:
				if t.def.Status == types.TaskDefinitionStatusInactive {
					t.def.Status, t.def.DeleteRequestedAt = types.TaskDefinitionStatusDeleteInProgress, aws.Time(call.Now)
				}
				out.TaskDefinitions = append(out.TaskDefinitions, t.def)
			}
		}
		return out, nil
	})
}
