// Package sts emulates AWS Security Token Service: GetCallerIdentity, AssumeRole and
// AssumeRoleWithWebIdentity. Temporary credentials it issues belong to the role's account;
// AssumeRole's session tags and external ID are checked as STS checks them and kept with the
// session (the state dump shows them).
package sts

import (
	"crypto/rand"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/aws-sdk-go-v2/service/sts/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// Backend holds the temporary credentials STS has issued.
type Backend struct {
	mu     sync.RWMutex
	issued map[string]session
}

// session is what one set of temporary credentials stands for.
type session struct {
	Account    string
	AssumedArn string
	RoleArn    string // the role assumed, the IAM principal of the session
	RoleID     string
	Expires    time.Time
	Tags       map[string]string `json:",omitempty"`
	ExternalID string            `json:",omitempty"`
}

// New returns an empty STS backend.
func New() *Backend { return &Backend{issued: map[string]session{}} }

// AccountFor returns the account of temporary credentials STS issued.
func (b *Backend) AccountFor(accessKey string) (string, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	s, ok := b.issued[accessKey]
	return s.Account, ok
}

// Principal returns the IAM principal whose access key signed call: the role of temporary
// credentials STS issued, or the emulator's default user of the call's account for any other key.
func (b *Backend) Principal(call *core.Call) string {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if s, ok := b.issued[call.AccessKey]; ok {
		return s.RoleArn
	}
	return core.DefaultPrincipal(call.Account)
}

// Service describes STS to the router.
func (b *Backend) Service() *core.Service {
	s := core.QueryService("sts", "STS", "sts", "2011-06-15", models.MustLoad("sts"))
	s.XMLNamespace = "https://sts.amazonaws.com/doc/2011-06-15/"
	s.Unsigned = map[string]bool{"AssumeRoleWithWebIdentity": true}
	return s.Declare(0, b.dump, map[string]core.Operation{
		"GetCallerIdentity":         core.Op(b.getCallerIdentity),
		"AssumeRole":                core.Op(b.assumeRole),
		"AssumeRoleWithWebIdentity": core.Op(b.assumeRoleWithWebIdentity),
	})
}

// dump returns the sessions STS has issued, for debugging.
func (b *Backend) dump() any {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return maps.Clone(b.issued)
}

func (b *Backend) getCallerIdentity(call *core.Call, _ *sts.GetCallerIdentityInput) (*sts.GetCallerIdentityOutput, error) {
	b.mu.RLock()
	s, ok := b.issued[call.AccessKey]
	b.mu.RUnlock()
	if ok {
		if call.Now.After(s.Expires) {
			return nil, &core.APIError{Code: "ExpiredToken", Status: http.StatusForbidden, Message: "The security token included in the request is expired"}
		}
		return &sts.GetCallerIdentityOutput{Account: aws.String(s.Account), Arn: aws.String(s.AssumedArn), UserId: aws.String(s.RoleID)}, nil
	}
	return &sts.GetCallerIdentityOutput{
		Account: aws.String(call.Account),
		Arn:     aws.String(core.DefaultPrincipal(call.Account)),
		UserId:  aws.String("AIDA" + strings.ToUpper(call.AccessKey)),
	}, nil
}

var (
	roleARN     = regexp.MustCompile(`^arn:aws[a-z-]*:iam::(\d{12}):role/(?:[\w+=,.@-]+/)*([\w+=,.@-]{1,64})$`)
	sessionName = regexp.MustCompile(`^[\w+=,.@-]{2,64}$`)
)

// Limits of AssumeRole's session tags and external ID.
var (
	tagKey     = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,128}$`)
	tagValue   = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]{0,256}$`)
	externalID = regexp.MustCompile(`^[\w+=,.@:/-]+$`)
)

// maxSessionTags is how many session tags one AssumeRole call may pass.
const maxSessionTags = 50

func (b *Backend) assumeRole(call *core.Call, in *sts.AssumeRoleInput) (*sts.AssumeRoleOutput, error) {
	tags, err := sessionTags(in.Tags)
	if err != nil {
		return nil, err
	}
	if id := aws.ToString(in.ExternalId); in.ExternalId != nil && (len(id) < 2 || len(id) > 1224 || !externalID.MatchString(id)) {
		return nil, core.Errorf("ValidationError",
			"1 validation error detected: Value '%s' at 'externalId' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@:\\/-]*", *in.ExternalId)
	}
	creds, user, err := b.issue(call, aws.ToString(in.RoleArn), aws.ToString(in.RoleSessionName), in.DurationSeconds,
		func(s *session) { s.Tags, s.ExternalID = tags, aws.ToString(in.ExternalId) })
	if err != nil {
		return nil, err
	}
	return &sts.AssumeRoleOutput{Credentials: creds, AssumedRoleUser: user}, nil
}

// sessionTags checks AssumeRole's session tags as STS does: at most 50, keys of 1 to 128 and
// values of up to 256 allowed characters, no key twice (without regard to case).
func sessionTags(in []types.Tag) (map[string]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if len(in) > maxSessionTags {
		return nil, core.Errorf("ValidationError",
			"1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to %d", maxSessionTags)
	}
	out := map[string]string{}
	seen := map[string]bool{}
	for _, t := range in {
		k, v := aws.ToString(t.Key), aws.ToString(t.Value)
		if !tagKey.MatchString(k) || !tagValue.MatchString(v) {
			return nil, core.Errorf("ValidationError", "1 validation error detected: Value at 'tags' failed to satisfy constraint: "+
				"Member must satisfy constraint: tag keys are 1 to 128 and values up to 256 characters of [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]")
		}
		if seen[strings.ToLower(k)] {
			return nil, core.Errorf("InvalidParameterValue", "Duplicate tag keys found. Please note that Tag keys are case insensitive.")
		}
		seen[strings.ToLower(k)] = true
		out[k] = v
	}
	return out, nil
}

func (b *Backend) assumeRoleWithWebIdentity(call *core.Call, in *sts.AssumeRoleWithWebIdentityInput) (*sts.AssumeRoleWithWebIdentityOutput, error) {
	token := aws.ToString(in.WebIdentityToken)
	if len(token) < 4 || len(token) > 20000 {
		return nil, core.Errorf("InvalidIdentityToken", "The web identity token that was passed could not be validated by AWS.")
	}
	creds, user, err := b.issue(call, aws.ToString(in.RoleArn), aws.ToString(in.RoleSessionName), in.DurationSeconds)
	if err != nil {
		return nil, err
	}
	return &sts.AssumeRoleWithWebIdentityOutput{Credentials: creds, AssumedRoleUser: user, Provider: aws.String("emulator")}, nil
}

// issue validates a role request as STS does and returns new temporary credentials.
// Options, such as the session tags, are applied to the session before it is kept.
func (b *Backend) issue(call *core.Call, arn, name string, duration *int32, opts ...func(*session)) (*types.Credentials, *types.AssumedRoleUser, error) {
	m := roleARN.FindStringSubmatch(arn)
	if m == nil {
		return nil, nil, core.Errorf("ValidationError", "%s is invalid", arn)
	}
	if !sessionName.MatchString(name) {
		return nil, nil, core.Errorf("ValidationError",
			"1 validation error detected: Value '%s' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*", name)
	}
	seconds := int32(3600)
	if duration != nil {
		seconds = *duration
	}
	if seconds < 900 || seconds > 43200 {
		return nil, nil, core.Errorf("ValidationError",
			"1 validation error detected: Value '%d' at 'durationSeconds' failed to satisfy constraint: Member must have value between 900 and 43200", seconds)
	}
	account, role := m[1], m[2]
	key := "ASIA" + randomUpper(16)
	roleID := "AROA" + randomUpper(17)
	s := session{
		Account:    account,
		AssumedArn: fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/%s", account, role, name),
		RoleArn:    arn,
		RoleID:     roleID + ":" + name,
		Expires:    call.Now.Add(time.Duration(seconds) * time.Second),
	}
	for _, o := range opts {
		o(&s)
	}
	b.mu.Lock()
	b.issued[key] = s
	b.mu.Unlock()
	return &types.Credentials{
			AccessKeyId:     aws.String(key),
			SecretAccessKey: aws.String(randomUpper(40)),
			SessionToken:    aws.String("FwoGZXIvYXdzE" + randomUpper(60)),
			Expiration:      aws.Time(s.Expires),
		}, &types.AssumedRoleUser{
			Arn:           aws.String(s.AssumedArn),
			AssumedRoleId: aws.String(s.RoleID),
		}, nil
}

const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

func randomUpper(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = upper[int(b[i])%len(upper)]
	}
	return string(b)
}
