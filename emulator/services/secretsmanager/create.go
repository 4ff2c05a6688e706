package secretsmanager

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// versionID returns the id of a new version: the request's ClientRequestToken, or a new UUID
// for a request without one.
func versionID(token *string) string {
	if token != nil {
		return *token
	}
	return core.NewUUID()
}

// tokenVersion returns the version a request's ClientRequestToken names, when it names one, and
// the error for a token already used for another value: a repeated request with the same token
// and value is answered with the version it created, and a token cannot change a version.
func tokenVersion(s *secret, token *string, str *string, bin []byte) (*version, error) {
	if token == nil {
		return nil, nil
	}
	v, ok := s.versions[*token]
	if !ok {
		return nil, nil
	}
	if !v.sameValue(str, bin) {
		return nil, resourceExists("You can't use ClientRequestToken %s because that value is already in use for a version of secret %s.", *token, s.arn)
	}
	return v, nil
}

// createSecret creates a secret, with a first version when the request carries a value, and
// replicates it to the regions it names. A repeated request with the same ClientRequestToken and
// value answers the version it created.
func (b *Backend) createSecret(call *core.Call, in *secretsmanager.CreateSecretInput) (*secretsmanager.CreateSecretOutput, error) {
	name := aws.ToString(in.Name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := checkContent(in.SecretString, in.SecretBinary, in.Description, in.ClientRequestToken); err != nil {
		return nil, err
	}
	if err := checkReplicaRegions(call, in.AddReplicaRegions); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.purge(call.Scope(), call.Now)
	secrets := b.secrets.Of(call)
	if s, ok := secrets[name]; ok {
		if s.deletion != nil {
			return nil, invalidRequest("You can't create this secret because a secret with this name is already scheduled for deletion.")
		}
		if !s.isReplica() {
			v, err := tokenVersion(s, in.ClientRequestToken, in.SecretString, in.SecretBinary)
			if err != nil {
				return nil, err
			}
			if v != nil {
				return &secretsmanager.CreateSecretOutput{ARN: aws.String(s.arn), Name: aws.String(s.name),
					VersionId: aws.String(v.id), ReplicationStatus: s.replicationStatus()}, nil
			}
		}
		return nil, resourceExists("The operation failed because the secret %s already exists.", name)
	}
	arn := arnPrefix(call.Scope()) + name + randomSuffix()
	tags, _ := core.TagMap(in.Tags, core.TagPair[types.Tag])
	if err := b.tags.Replace(arn, tags); err != nil {
		return nil, err
	}
	st := &state{name: name, primaryARN: arn, primaryRegion: call.Region, description: aws.ToString(in.Description),
		kmsKeyID: storedKey(aws.ToString(in.KmsKeyId)), created: call.Now, changed: call.Now}
	s := &secret{state: st, arn: arn, region: call.Region}
	out := &secretsmanager.CreateSecretOutput{ARN: aws.String(arn), Name: aws.String(name)}
	if in.SecretString != nil || in.SecretBinary != nil {
		v := st.putValue(versionID(in.ClientRequestToken), in.SecretString, in.SecretBinary, nil, call.Now)
		out.VersionId = aws.String(v.id)
	}
	secrets[name] = s
	b.replicate(call, s, in.AddReplicaRegions, in.ForceOverwriteReplicaSecret)
	out.ReplicationStatus = st.replicationStatus()
	return out, nil
}

// describeSecret returns a secret's metadata, including a secret scheduled for deletion.
func (b *Backend) describeSecret(call *core.Call, in *secretsmanager.DescribeSecretInput) (*secretsmanager.DescribeSecretOutput, error) {
	return withSecret(b, call, b.find, in.SecretId, func(s *secret) (*secretsmanager.DescribeSecretOutput, error) {
		return b.describe(s), nil
	})
}

// deleteSecret schedules a secret for deletion at the end of its recovery window (30 days unless
// the request says 7 to 30), or deletes it at once when ForceDeleteWithoutRecovery is set.
func (b *Backend) deleteSecret(call *core.Call, in *secretsmanager.DeleteSecretInput) (*secretsmanager.DeleteSecretOutput, error) {
	force := aws.ToBool(in.ForceDeleteWithoutRecovery)
	if force && in.RecoveryWindowInDays != nil {
		return nil, invalidParameter("You can't use ForceDeleteWithoutRecovery in conjunction with RecoveryWindowInDays.")
	}
	days := int64(30)
	if in.RecoveryWindowInDays != nil {
		days = *in.RecoveryWindowInDays
		if days < 7 || days > 30 {
			return nil, invalidParameter("The RecoveryWindowInDays value must be between 7 and 30 days (inclusive).")
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.find(call, in.SecretId)
	if err != nil {
		if !force {
			return nil, err
		}
		// Forcibly deleting a secret that does not exist is not an error (DeleteSecret,
		// ForceDeleteWithoutRecovery).
		name := aws.ToString(in.SecretId)
		arn := name
		if !isARN(name) {
			arn = arnPrefix(call.Scope()) + name
		}
		return &secretsmanager.DeleteSecretOutput{ARN: aws.String(arn), Name: aws.String(name), DeletionDate: aws.Time(call.Now)}, nil
	}
	if s.isReplica() {
		return nil, onReplica()
	}
	if len(s.replicas) > 0 {
		return nil, invalidRequest("You can't delete secret %s that still has replica regions %v", s.name, s.replicaRegions())
	}
	if force {
		delete(b.secrets.Of(call), s.name)
		b.tags.Delete(s.primaryARN)
		return &secretsmanager.DeleteSecretOutput{ARN: aws.String(s.arn), Name: aws.String(s.name), DeletionDate: aws.Time(call.Now)}, nil
	}
	if s.deletion != nil {
		return nil, invalidRequest("You tried to perform the operation on a secret that's currently marked deleted.")
	}
	s.deletion = aws.Time(call.Now.AddDate(0, 0, int(days)))
	s.changed = call.Now
	return &secretsmanager.DeleteSecretOutput{ARN: aws.String(s.arn), Name: aws.String(s.name), DeletionDate: s.deletion}, nil
}

// restoreSecret cancels the scheduled deletion of a secret.
func (b *Backend) restoreSecret(call *core.Call, in *secretsmanager.RestoreSecretInput) (*secretsmanager.RestoreSecretOutput, error) {
	return withSecret(b, call, b.find, in.SecretId, func(s *secret) (*secretsmanager.RestoreSecretOutput, error) {
		if s.isReplica() {
			return nil, onReplica()
		}
		if s.deletion != nil {
			s.deletion = nil
			s.changed = call.Now
		}
		return &secretsmanager.RestoreSecretOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}, nil
	})
}

// isARN reports whether a secret id is an ARN rather than a name.
func isARN(id string) bool { return len(id) > 4 && id[:4] == "arn:" }
