package secretsmanager

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// checkStage returns the error for a staging label that is not 1 to 256 characters long.
func checkStage(stage string) error {
	if len(stage) < 1 || len(stage) > 256 {
		return validation("Value '%s' at 'versionStage' failed to satisfy constraint: Member must have length between 1 and 256", stage)
	}
	return nil
}

// getSecretValue returns the value of a secret's version named by VersionId or VersionStage
// (AWSCURRENT when neither is given) and records the day of the access.
func (b *Backend) getSecretValue(call *core.Call, in *secretsmanager.GetSecretValueInput) (*secretsmanager.GetSecretValueOutput, error) {
	return withSecret(b, call, b.live, in.SecretId, func(s *secret) (*secretsmanager.GetSecretValueOutput, error) {
		var v *version
		switch {
		case in.VersionId != nil:
			v = s.versions[*in.VersionId]
			if v == nil {
				return nil, core.Errorf("ResourceNotFoundException", "Secrets Manager can't find the specified secret value for VersionId: %s", *in.VersionId)
			}
			if in.VersionStage != nil && !v.has(*in.VersionStage) {
				return nil, invalidRequest("You provided a VersionStage that is not associated to the provided VersionId.")
			}
		default:
			stage := current
			if in.VersionStage != nil {
				stage = *in.VersionStage
			}
			if v = s.staged(stage); v == nil {
				return nil, core.Errorf("ResourceNotFoundException", "Secrets Manager can't find the specified secret value for staging label: %s", stage)
			}
		}
		today := day(call.Now)
		s.accessed, v.accessed = &today, &today
		return &secretsmanager.GetSecretValueOutput{ARN: aws.String(s.arn), Name: aws.String(s.name), VersionId: aws.String(v.id),
			SecretString: v.str, SecretBinary: v.bin, VersionStages: slices.Clone(v.stages), CreatedDate: aws.Time(v.created)}, nil
	})
}

// putSecretValue adds a version with a new value to a secret, staged AWSCURRENT unless the request
// names other labels.
func (b *Backend) putSecretValue(call *core.Call, in *secretsmanager.PutSecretValueInput) (*secretsmanager.PutSecretValueOutput, error) {
	if err := checkValue(in.SecretString, in.SecretBinary, true); err != nil {
		return nil, err
	}
	if err := checkToken(in.ClientRequestToken); err != nil {
		return nil, err
	}
	for _, stage := range in.VersionStages {
		if err := checkStage(stage); err != nil {
			return nil, err
		}
	}
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.PutSecretValueOutput, error) {
		v, err := tokenVersion(s, in.ClientRequestToken, in.SecretString, in.SecretBinary)
		if err != nil {
			return nil, err
		}
		if v == nil {
			v = s.putValue(versionID(in.ClientRequestToken), in.SecretString, in.SecretBinary, in.VersionStages, call.Now)
		}
		return &secretsmanager.PutSecretValueOutput{ARN: aws.String(s.arn), Name: aws.String(s.name), VersionId: aws.String(v.id),
			VersionStages: slices.Clone(v.stages)}, nil
	})
}

// updateSecret changes a secret's description and KMS key and, when the request carries a value,
// adds a version that becomes AWSCURRENT.
func (b *Backend) updateSecret(call *core.Call, in *secretsmanager.UpdateSecretInput) (*secretsmanager.UpdateSecretOutput, error) {
	if err := checkContent(in.SecretString, in.SecretBinary, in.Description, in.ClientRequestToken); err != nil {
		return nil, err
	}
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.UpdateSecretOutput, error) {
		out := &secretsmanager.UpdateSecretOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}
		if in.SecretString != nil || in.SecretBinary != nil {
			v, err := tokenVersion(s, in.ClientRequestToken, in.SecretString, in.SecretBinary)
			if err != nil {
				return nil, err
			}
			if v == nil {
				v = s.putValue(versionID(in.ClientRequestToken), in.SecretString, in.SecretBinary, nil, call.Now)
			}
			out.VersionId = aws.String(v.id)
		}
		if in.Description != nil {
			s.description = *in.Description
		}
		if in.KmsKeyId != nil {
			// An empty KmsKeyId returns the secret to the AWS managed key (UpdateSecret, KmsKeyId).
			s.kmsKeyID = storedKey(*in.KmsKeyId)
		}
		s.changed = call.Now
		return out, nil
	})
}

// updateSecretVersionStage moves a staging label to a version, or removes it from one.
func (b *Backend) updateSecretVersionStage(call *core.Call, in *secretsmanager.UpdateSecretVersionStageInput) (*secretsmanager.UpdateSecretVersionStageOutput, error) {
	stage := aws.ToString(in.VersionStage)
	if err := checkStage(stage); err != nil {
		return nil, err
	}
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.UpdateSecretVersionStageOutput, error) {
		var from, to *version
		if in.RemoveFromVersionId != nil {
			if from = s.versions[*in.RemoveFromVersionId]; from == nil {
				return nil, invalidParameter("Not a valid version: %s", *in.RemoveFromVersionId)
			}
			if !from.has(stage) {
				return nil, invalidParameter("The staging label %s is not attached to version %s, so you can't remove it from that version.", stage, from.id)
			}
		}
		if in.MoveToVersionId != nil {
			if to = s.versions[*in.MoveToVersionId]; to == nil {
				return nil, invalidParameter("Not a valid version: %s", *in.MoveToVersionId)
			}
			// A label attached to another version moves only when the request names that version.
			if holder := s.staged(stage); holder != nil && holder != to && holder != from {
				return nil, invalidParameter("The parameter RemoveFromVersionId can't be empty. Staging label %s is currently attached to version %s, so you must explicitly reference that version in RemoveFromVersionId.", stage, holder.id)
			}
		}
		switch {
		case to != nil:
			s.attach(to, stage)
		case from != nil && stage == current:
			return nil, invalidParameter("You can't remove the staging label AWSCURRENT from version %s without moving it to another version with MoveToVersionId.", from.id)
		case from != nil:
			from.remove(stage)
		}
		s.changed = call.Now
		return &secretsmanager.UpdateSecretVersionStageOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}, nil
	})
}

// listSecretVersionIds lists the versions of a secret by pages, those without staging labels only
// when IncludeDeprecated is set.
func (b *Backend) listSecretVersionIds(call *core.Call, in *secretsmanager.ListSecretVersionIdsInput) (*secretsmanager.ListSecretVersionIdsOutput, error) {
	size, err := pageSize(in.MaxResults)
	if err != nil {
		return nil, err
	}
	return withSecret(b, call, b.find, in.SecretId, func(s *secret) (*secretsmanager.ListSecretVersionIdsOutput, error) {
		keys := "DefaultEncryptionKey"
		if s.kmsKeyID != "" {
			keys = s.kmsKeyID
		}
		var versions []types.SecretVersionsListEntry
		for _, id := range s.order {
			v := s.versions[id]
			if len(v.stages) == 0 && !aws.ToBool(in.IncludeDeprecated) {
				continue
			}
			versions = append(versions, types.SecretVersionsListEntry{VersionId: aws.String(id), VersionStages: slices.Clone(v.stages),
				CreatedDate: aws.Time(v.created), LastAccessedDate: v.accessed, KmsKeyIds: []string{keys}})
		}
		page, next, ok := core.Page(versions, aws.ToString(in.NextToken), size)
		if !ok {
			return nil, invalidNextToken()
		}
		out := &secretsmanager.ListSecretVersionIdsOutput{ARN: aws.String(s.arn), Name: aws.String(s.name), Versions: page}
		if next != "" {
			out.NextToken = aws.String(next)
		}
		return out, nil
	})
}

// pageSize returns the page size a MaxResults asks for: 1 to 100, 100 when absent.
func pageSize(max *int32) (int, error) {
	if max == nil {
		return 100, nil
	}
	if *max < 1 || *max > 100 {
		return 0, validation("Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100", *max)
	}
	return int(*max), nil
}

// invalidNextToken is the answer to a NextToken that no listing returned.
func invalidNextToken() error {
	return core.Errorf("InvalidNextTokenException", "The NextToken value is invalid.")
}
