package secretsmanager

import (
	"bytes"
	"crypto/rand"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The staging labels Secrets Manager itself moves.
const (
	current  = "AWSCURRENT"
	previous = "AWSPREVIOUS"
	pending  = "AWSPENDING"
)

// defaultKey is the KMS key of secrets that name none, as replication statuses report it.
const defaultKey = "alias/aws/secretsmanager"

// storedKey returns the KMS key a secret keeps for id, the key a request names: "" for the AWS
// managed key named by its alias or alias ARN, which DescribeSecret omits as it omits a key
// never named ("If the secret is encrypted with the Amazon Web Services managed key
// aws/secretsmanager, this field is omitted").
func storedKey(id string) string {
	if id == defaultKey || strings.HasSuffix(id, ":"+defaultKey) {
		return ""
	}
	return id
}

// maxDeprecated is how many versions without staging labels a secret keeps; Secrets Manager
// removes older ones (UpdateSecret: "Secrets Manager removes outdated versions when there are
// more than 100").
const maxDeprecated = 100

// state is what a secret and its replicas share: its versions, settings and schedules. It lives
// in the primary region; replicas read it.
type state struct {
	name          string
	primaryARN    string
	primaryRegion string
	description   string
	kmsKeyID      string // "" for the AWS managed key aws/secretsmanager
	created       time.Time
	changed       time.Time
	accessed      *time.Time // day of the last GetSecretValue
	deletion      *time.Time // when a secret scheduled for deletion goes; nil otherwise
	policy        string     // the resource policy, "" for none
	versions      map[string]*version
	order         []string // version ids, oldest first
	rotation      rotation
	replicas      []*replica // in the order they were added
}

// rotation is a secret's rotation configuration and history.
type rotation struct {
	lambda      string
	enabled     bool
	rules       *types.RotationRulesType
	lastRotated *time.Time
}

// replica is the replication of a secret to one other region.
type replica struct {
	region, kmsKeyID string
	status           types.StatusType
	message          string
}

// secret is a secret as one region holds it: the primary, or a read-only replica in another
// region sharing the primary's state.
type secret struct {
	*state
	arn    string
	region string
}

// isReplica reports whether s is a replica rather than the primary secret.
func (s *secret) isReplica() bool { return s.region != s.primaryRegion }

// version is one version of a secret's value.
type version struct {
	id       string
	str      *string
	bin      []byte
	stages   []string
	created  time.Time
	accessed *time.Time
}

// sameValue reports whether the version holds the value a request carries.
func (v *version) sameValue(str *string, bin []byte) bool {
	return aws.ToString(v.str) == aws.ToString(str) && (v.str == nil) == (str == nil) && bytes.Equal(v.bin, bin) && (v.bin == nil) == (bin == nil)
}

// has reports whether the version carries a staging label.
func (v *version) has(stage string) bool { return slices.Contains(v.stages, stage) }

// remove takes a staging label off the version.
func (v *version) remove(stage string) {
	v.stages = slices.DeleteFunc(v.stages, func(s string) bool { return s == stage })
}

// staged returns the version carrying a staging label, or nil.
func (s *state) staged(stage string) *version {
	for _, id := range s.order {
		if v := s.versions[id]; v.has(stage) {
			return v
		}
	}
	return nil
}

// attach moves a staging label to v from whichever version carries it. Moving AWSCURRENT gives
// AWSPREVIOUS to the version it left, as Secrets Manager does.
func (s *state) attach(v *version, stage string) {
	old := s.staged(stage)
	if old == v {
		return
	}
	if old != nil {
		old.remove(stage)
	}
	v.stages = append(v.stages, stage)
	if stage == current && old != nil {
		s.attach(old, previous)
	}
}

// addVersion adds a version with a value and no staging labels, and forgets the oldest versions
// without labels beyond maxDeprecated.
func (s *state) addVersion(id string, str *string, bin []byte, now time.Time) *version {
	v := &version{id: id, str: str, bin: bin, created: now}
	if s.versions == nil {
		s.versions = map[string]*version{}
	}
	s.versions[id] = v
	s.order = append(s.order, id)
	deprecated := 0
	for _, id := range s.order {
		if len(s.versions[id].stages) == 0 && id != v.id {
			deprecated++
		}
	}
	for i := 0; deprecated > maxDeprecated && i < len(s.order); {
		if old := s.versions[s.order[i]]; len(old.stages) == 0 && old != v {
			delete(s.versions, old.id)
			s.order = slices.Delete(s.order, i, i+1)
			deprecated--
			continue
		}
		i++
	}
	return v
}

// putValue adds a version with a value under the staging labels given (AWSCURRENT when none are),
// and with AWSCURRENT as well when it is the secret's first version.
func (s *state) putValue(id string, str *string, bin []byte, stages []string, now time.Time) *version {
	first := s.staged(current) == nil
	v := s.addVersion(id, str, bin, now)
	if stages == nil {
		stages = []string{current}
	}
	if first && !slices.Contains(stages, current) {
		stages = append(stages, current)
	}
	for _, stage := range stages {
		s.attach(v, stage)
	}
	s.changed = now
	return v
}

// stages returns the staging labels of every version that has some, by version id.
func (s *state) stages() map[string][]string {
	out := map[string][]string{}
	for _, id := range s.order {
		if v := s.versions[id]; len(v.stages) > 0 {
			out[id] = slices.Clone(v.stages)
		}
	}
	return out
}

// nextRotation returns when the rotation schedule next rotates the secret: the interval of
// AutomaticallyAfterDays or of a rate() expression after the last rotation (or after the
// rotation was configured). It is nil when rotation is off or follows a cron() expression, which
// the emulator does not evaluate.
func (s *state) nextRotation() *time.Time {
	r := s.rotation
	if !r.enabled || r.rules == nil {
		return nil
	}
	base := s.changed
	if r.lastRotated != nil {
		base = *r.lastRotated
	}
	every, ok := interval(r.rules)
	if !ok {
		return nil
	}
	return aws.Time(base.Add(every))
}

// suffixChars are the characters of the random suffix Secrets Manager adds to a secret's name in
// its ARN.
const suffixChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// randomSuffix returns a hyphen and six random characters, the end of a secret's ARN.
func randomSuffix() string {
	b := []byte("-")
	for range 6 {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(suffixChars))))
		if err != nil {
			panic(err)
		}
		b = append(b, suffixChars[n.Int64()])
	}
	return string(b)
}

// day returns the UTC midnight that starts t's day: Secrets Manager reports when a secret was
// last accessed to the day.
func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// entry returns the secret as ListSecrets reports it. The caller holds b.mu.
func (b *Backend) entry(s *secret) types.SecretListEntry {
	e := types.SecretListEntry{
		ARN:                    aws.String(s.arn),
		Name:                   aws.String(s.name),
		CreatedDate:            aws.Time(s.created),
		LastChangedDate:        aws.Time(s.changed),
		LastAccessedDate:       s.accessed,
		DeletedDate:            s.deletion,
		RotationEnabled:        aws.Bool(s.rotation.enabled),
		LastRotatedDate:        s.rotation.lastRotated,
		NextRotationDate:       s.nextRotation(),
		SecretVersionsToStages: s.stages(),
		Tags: core.TagList(b.tags, s.primaryARN, func(k, v string) types.Tag {
			return types.Tag{Key: aws.String(k), Value: aws.String(v)}
		}),
	}
	if s.description != "" {
		e.Description = aws.String(s.description)
	}
	if s.kmsKeyID != "" {
		e.KmsKeyId = aws.String(s.kmsKeyID)
	}
	if s.rotation.lambda != "" {
		e.RotationLambdaARN = aws.String(s.rotation.lambda)
	}
	if s.rotation.rules != nil {
		e.RotationRules = reportedRules(s.rotation.rules)
	}
	if s.isReplica() {
		e.PrimaryRegion = aws.String(s.primaryRegion)
	}
	return e
}

// describe returns the secret as DescribeSecret reports it. The caller holds b.mu.
func (b *Backend) describe(s *secret) *secretsmanager.DescribeSecretOutput {
	e := b.entry(s)
	out := &secretsmanager.DescribeSecretOutput{
		ARN: e.ARN, Name: e.Name, Description: e.Description, KmsKeyId: e.KmsKeyId,
		CreatedDate: e.CreatedDate, LastChangedDate: e.LastChangedDate, LastAccessedDate: e.LastAccessedDate,
		DeletedDate: e.DeletedDate, RotationEnabled: e.RotationEnabled, RotationLambdaARN: e.RotationLambdaARN,
		RotationRules: e.RotationRules, LastRotatedDate: e.LastRotatedDate, NextRotationDate: e.NextRotationDate,
		VersionIdsToStages: e.SecretVersionsToStages, Tags: e.Tags, PrimaryRegion: e.PrimaryRegion,
	}
	if !s.isReplica() {
		out.ReplicationStatus = s.replicationStatus()
	}
	return out
}

// replicationStatus returns the status of each replica of the secret, nil when it has none.
func (s *state) replicationStatus() []types.ReplicationStatusType {
	var out []types.ReplicationStatusType
	for _, r := range s.replicas {
		out = append(out, types.ReplicationStatusType{Region: aws.String(r.region), KmsKeyId: aws.String(r.kmsKeyID),
			Status: r.status, StatusMessage: aws.String(r.message)})
	}
	return out
}
