package lambda

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxPolicy is the largest resource-based policy a function or version may have, in bytes
// (Lambda quotas, Function resource-based policy: 20 KB).
const maxPolicy = 20480

var (
	// statementID is the StatementId constraint of the API reference.
	statementID = regexp.MustCompile(`^[a-zA-Z0-9-_]{1,100}$`)
	// permissionAction is the Action constraint of the API reference.
	permissionAction = regexp.MustCompile(`^(lambda:[*]|lambda:[a-zA-Z]+|[*])$`)
	// accountID is a 12-digit AWS account ID.
	accountID = regexp.MustCompile(`^\d{12}$`)
)

// policy is the resource-based policy of a function or of one of its versions: the statements
// AddPermission added, in order.
type policy struct {
	statements []statement
}

// statement is one statement of a resource-based policy, as Lambda writes it.
type statement struct {
	Sid       string                       `json:"Sid"`
	Effect    string                       `json:"Effect"`
	Principal any                          `json:"Principal"`
	Action    string                       `json:"Action"`
	Resource  string                       `json:"Resource"`
	Condition map[string]map[string]string `json:"Condition,omitempty"`
}

// document returns the policy as the JSON document GetPolicy answers.
func (p *policy) document() string {
	b, _ := json.Marshal(struct {
		Version   string      `json:"Version"`
		ID        string      `json:"Id"`
		Statement []statement `json:"Statement"`
	}{"2012-10-17", "default", p.statements})
	return string(b)
}

// principal writes an AddPermission Principal as a policy does: an account ID as its root user's
// ARN, a service as a Service principal, "*" as it is.
func principal(p string) any {
	switch {
	case p == "*":
		return "*"
	case accountID.MatchString(p):
		return map[string]string{"AWS": "arn:aws:iam::" + p + ":root"}
	case strings.HasPrefix(p, "arn:"):
		return map[string]string{"AWS": p}
	default:
		return map[string]string{"Service": p}
	}
}

// policyTarget returns the configuration whose RevisionId a policy request reads and changes,
// the function's or a version's, and the key of its policy in f.policies: "" for the function
// (which $LATEST also names), or the version number. Aliases are not emulated and are not
// found. The caller holds the backend's lock.
func (b *Backend) policyTarget(call *core.Call, t target) (*function, *types.FunctionConfiguration, string, error) {
	f, err := b.find(call, t)
	if err != nil {
		return nil, nil, "", err
	}
	switch t.qualifier {
	case "", "$LATEST":
		return f, &f.cfg, "", nil
	}
	if v, ok := f.versions[t.qualifier]; ok {
		return f, &v.cfg, t.qualifier, nil
	}
	return nil, nil, "", functionNotFound(call, t)
}

// withPolicy runs f, holding the backend's lock, on the function or version a policy request
// names (policyTarget), the configuration whose RevisionId it reads and changes, the key of its
// policy in f.policies and that policy (nil when it has none). Adding refuses $LATEST, which
// takes no policy of its own, before looking the function up.
func withPolicy[O any](b *Backend, call *core.Call, name, qualifier *string, adding bool,
	f func(fn *function, cfg *types.FunctionConfiguration, key string, p *policy) (*O, error)) (*O, error) {
	t, err := parseTarget(call, name, qualifier)
	if err != nil {
		return nil, err
	}
	if adding && t.qualifier == "$LATEST" {
		return nil, invalidParameter("We currently do not support adding policies for $LATEST.")
	}
	b.state.Lock()
	defer b.state.Unlock()
	fn, cfg, key, err := b.policyTarget(call, t)
	if err != nil {
		return nil, err
	}
	return f(fn, cfg, key, fn.policies[key])
}

// checkPermission validates what AddPermission is given against the API reference.
func checkPermission(in *lambda.AddPermissionInput) error {
	if sid := aws.ToString(in.StatementId); !statementID.MatchString(sid) {
		return validationf("Value '%s' at 'statementId' failed to satisfy constraint: Member must satisfy regular expression pattern: ([a-zA-Z0-9-_]+)", sid)
	}
	if action := aws.ToString(in.Action); !permissionAction.MatchString(action) {
		return validationf("Value '%s' at 'action' failed to satisfy constraint: Member must satisfy regular expression pattern: (lambda:[*]|lambda:[a-zA-Z]+|[*])", action)
	}
	if p := aws.ToString(in.Principal); p == "" || strings.ContainsAny(p, " \t\n") {
		return validationf("Value '%s' at 'principal' failed to satisfy constraint: Member must satisfy regular expression pattern: [^\\s]+", p)
	}
	if in.SourceAccount != nil && !accountID.MatchString(*in.SourceAccount) {
		return validationf("Value '%s' at 'sourceAccount' failed to satisfy constraint: Member must satisfy regular expression pattern: ^\\d{12}$", *in.SourceAccount)
	}
	if a := in.FunctionUrlAuthType; a != "" && !slices.Contains(a.Values(), a) {
		return validationf("Value '%s' at 'functionUrlAuthType' failed to satisfy constraint: Member must satisfy enum value set: [NONE, AWS_IAM]", a)
	}
	return nil
}

// addPermission adds a statement to the resource-based policy of a function or version,
// granting Principal the Action, under the conditions the request gives. Statement IDs are
// unique in a policy. The function's (or version's) RevisionId changes.
func (b *Backend) addPermission(call *core.Call, in *lambda.AddPermissionInput) (*lambda.AddPermissionOutput, error) {
	if err := checkPermission(in); err != nil {
		return nil, err
	}
	return withPolicy(b, call, in.FunctionName, in.Qualifier, true, func(f *function, cfg *types.FunctionConfiguration, key string, p *policy) (*lambda.AddPermissionOutput, error) {
		if err := checkRevision(in.RevisionId, cfg.RevisionId); err != nil {
			return nil, err
		}
		if p == nil {
			p = &policy{}
		}
		sid := aws.ToString(in.StatementId)
		if slices.ContainsFunc(p.statements, func(s statement) bool { return s.Sid == sid }) {
			return nil, conflict("The statement id (%s) provided already exists. Please provide a new statement id, or remove the existing statement.", sid)
		}
		s := statement{Sid: sid, Effect: "Allow", Principal: principal(aws.ToString(in.Principal)), Action: aws.ToString(in.Action),
			Resource: aws.ToString(cfg.FunctionArn)}
		condition := func(operator, key string, value *string) {
			if aws.ToString(value) == "" {
				return
			}
			if s.Condition == nil {
				s.Condition = map[string]map[string]string{}
			}
			if s.Condition[operator] == nil {
				s.Condition[operator] = map[string]string{}
			}
			s.Condition[operator][key] = *value
		}
		condition("ArnLike", "AWS:SourceArn", in.SourceArn)
		condition("StringEquals", "AWS:SourceAccount", in.SourceAccount)
		condition("StringEquals", "aws:PrincipalOrgID", in.PrincipalOrgID)
		condition("StringEquals", "lambda:EventSourceToken", in.EventSourceToken)
		condition("StringEquals", "lambda:FunctionUrlAuthType", aws.String(string(in.FunctionUrlAuthType)))
		grown := &policy{statements: append(slices.Clone(p.statements), s)}
		if size := len(grown.document()); size > maxPolicy {
			return nil, &core.APIError{Code: "PolicyLengthExceededException", Status: http.StatusBadRequest,
				Message: "The final policy size (" + strconv.Itoa(size) + ") is bigger than the limit (20480)."}
		}
		f.policies[key] = grown
		cfg.RevisionId = aws.String(b.revision())
		text, _ := json.Marshal(s)
		return &lambda.AddPermissionOutput{Statement: aws.String(string(text))}, nil
	})
}

// removePermission removes a statement from the resource-based policy of a function or
// version; the policy goes with its last statement. The RevisionId changes.
func (b *Backend) removePermission(call *core.Call, in *lambda.RemovePermissionInput) (*lambda.RemovePermissionOutput, error) {
	return withPolicy(b, call, in.FunctionName, in.Qualifier, false, func(f *function, cfg *types.FunctionConfiguration, key string, p *policy) (*lambda.RemovePermissionOutput, error) {
		if p == nil {
			return nil, core.NotFoundf("ResourceNotFoundException", "No policy is associated with the given resource.")
		}
		sid := aws.ToString(in.StatementId)
		i := slices.IndexFunc(p.statements, func(s statement) bool { return s.Sid == sid })
		if i < 0 {
			return nil, core.NotFoundf("ResourceNotFoundException", "Statement %s is not found in resource policy.", sid)
		}
		if err := checkRevision(in.RevisionId, cfg.RevisionId); err != nil {
			return nil, err
		}
		p.statements = slices.Delete(slices.Clone(p.statements), i, i+1)
		if len(p.statements) == 0 {
			delete(f.policies, key)
		}
		cfg.RevisionId = aws.String(b.revision())
		return &lambda.RemovePermissionOutput{}, nil
	})
}

// getPolicy answers the resource-based policy of a function or version as a JSON document,
// with the function's (or version's) RevisionId.
func (b *Backend) getPolicy(call *core.Call, in *lambda.GetPolicyInput) (*lambda.GetPolicyOutput, error) {
	return withPolicy(b, call, in.FunctionName, in.Qualifier, false, func(f *function, cfg *types.FunctionConfiguration, key string, p *policy) (*lambda.GetPolicyOutput, error) {
		if p == nil {
			return nil, core.NotFoundf("ResourceNotFoundException", "The resource you requested does not exist.")
		}
		return &lambda.GetPolicyOutput{Policy: aws.String(p.document()), RevisionId: cfg.RevisionId}, nil
	})
}
