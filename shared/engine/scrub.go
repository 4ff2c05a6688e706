package engine

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// secretMarker stands for a secret value in what the engine reports.
const secretMarker = "[secret]"

// minScrubbed is the length, in bytes, below which a registered value is not scrubbed. A value
// of one to three bytes ("1", "on", "yes") cannot be hidden by replacing it: every occurrence
// of those characters in a message would become the marker, which garbles sizes, names and
// codes, and where the rest of the message is known (it echoes what the tenant wrote) the
// places of the markers spell the value out; and such a value is guessed in at most 2^24
// tries anyway. Everything a kind requires as secret is far longer (an RDS master password
// has at least 8 characters, an ElastiCache AUTH token 16, a private key hundreds), so a
// Secret whose value must stay hidden needs 4 bytes or more.
const minScrubbed = 4

// secretForms returns the forms in which the values of secrets may appear in a message,
// longest first, so that a value that holds another is replaced whole: the raw value; its
// body as a JSON string, with and without the HTML escapes of encoding/json (Lambda and the
// emulator echo the environment as JSON); its body as a Go quoted string (messages quote
// with %q); and its base64 encodings without padding, standard and URL-safe (AWS echoes
// binary and user-data fields in base64; the padding left after a replacement tells no
// more than the length modulo 3). Values shorter than minScrubbed are left out (see minScrubbed). Only whole
// occurrences are found: a value that AWS cuts in the middle leaves its start behind.
func secretForms(s *managed.Secrets) []string {
	var forms []string
	for _, v := range s.Values() {
		if len(v) < minScrubbed {
			continue
		}
		forms = append(forms, v, jsonBody(v, true), jsonBody(v, false), quotedBody(v),
			base64.RawStdEncoding.EncodeToString([]byte(v)), base64.RawURLEncoding.EncodeToString([]byte(v)))
	}
	slices.SortFunc(forms, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	return slices.Compact(forms)
}

// jsonBody returns v as the inside of a JSON string, with or without encoding/json's HTML
// escapes (\u003c for <, and so on).
func jsonBody(v string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(v) // A string always encodes.
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// quotedBody returns v as the inside of a Go quoted string.
func quotedBody(v string) string {
	q := strconv.Quote(v)
	return q[1 : len(q)-1]
}

// scrubText returns text with every form of every secret value of the pass replaced by
// secretMarker.
func scrubText(s *managed.Secrets, text string) string {
	return scrubForms(secretForms(s), text)
}

func scrubForms(forms []string, text string) string {
	for _, f := range forms {
		text = strings.ReplaceAll(text, f, secretMarker)
	}
	return text
}

// scrubConditions removes the secret values of the pass from the messages of o's conditions,
// whatever set them, before the status is written.
func scrubConditions(s *managed.Secrets, o v1alpha1.Managed) {
	forms := secretForms(s)
	if len(forms) == 0 {
		return
	}
	conds := o.GetManagedStatus().Conditions
	for i := range conds {
		conds[i].Message = scrubForms(forms, conds[i].Message)
	}
}

// scrubError returns err, when its text holds no secret value of the pass, and otherwise an
// error whose text, and the text of every error errors.As finds in it, has the secret values
// replaced by secretMarker. The error still classifies as err does (awserr.Classify,
// awserr.Describe): errors.As finds the AWS API error with its code and fault (its message
// scrubbed), the operation, the HTTP status code, a network error, exhausted retries, and the
// engine's terminal and waiting errors; errors.Is sees through to err. err itself is never
// handed out, so that nothing that unwraps the error (a logger that prints causes) finds the
// value.
func scrubError(s *managed.Secrets, err error) error {
	return scrubWith(secretForms(s), err)
}

// scrubWith is scrubError for the forms of the secret values (see secretForms).
func scrubWith(forms []string, err error) error {
	if err == nil {
		return nil
	}
	text := scrubForms(forms, err.Error())
	if text == err.Error() {
		return err
	}
	return &scrubbedError{text: text, cause: err, forms: forms}
}

// scrubbedError is an error whose text has the secret values of a pass removed.
type scrubbedError struct {
	text  string
	cause error
	forms []string
}

// Error returns the scrubbed text.
func (e *scrubbedError) Error() string { return e.text }

// Is reports whether the cause is target: a comparison that hands out nothing.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.cause, target) }

// As finds in the cause the kinds of error that classify it, and sets target to a scrubbed copy.
func (e *scrubbedError) As(target any) bool {
	switch t := target.(type) {
	case *smithy.APIError:
		var api smithy.APIError
		if !errors.As(e.cause, &api) {
			return false
		}
		*t = &smithy.GenericAPIError{Code: api.ErrorCode(), Message: scrubForms(e.forms, api.ErrorMessage()), Fault: api.ErrorFault()}
	case **smithy.OperationError:
		var op *smithy.OperationError
		if !errors.As(e.cause, &op) {
			return false
		}
		*t = &smithy.OperationError{ServiceID: op.ServiceID, OperationName: op.OperationName, Err: e.wrap(op.Err)}
	case *interface{ HTTPStatusCode() int }:
		var resp interface{ HTTPStatusCode() int }
		if !errors.As(e.cause, &resp) {
			return false
		}
		*t = &statusError{scrubbedError: e, code: resp.HTTPStatusCode()}
	case *net.Error:
		var ne net.Error
		if !errors.As(e.cause, &ne) {
			return false
		}
		*t = &netError{scrubbedError: e, timeout: ne.Timeout()}
	case **retry.MaxAttemptsError:
		var attempts *retry.MaxAttemptsError
		if !errors.As(e.cause, &attempts) {
			return false
		}
		*t = &retry.MaxAttemptsError{Attempt: attempts.Attempt, Err: e.wrap(attempts.Err)}
	case **managed.TerminalError:
		var te *managed.TerminalError
		if !errors.As(e.cause, &te) {
			return false
		}
		*t = &managed.TerminalError{Reason: te.Reason, Err: e.wrap(te.Err)}
	case **managed.WaitingError:
		var we *managed.WaitingError
		if !errors.As(e.cause, &we) {
			return false
		}
		*t = &managed.WaitingError{Reason: we.Reason, Message: scrubForms(e.forms, we.Message), After: we.After}
	default:
		return false
	}
	return true
}

// wrap scrubs an error found in the cause with the same forms.
func (e *scrubbedError) wrap(err error) error { return scrubWith(e.forms, err) }

// statusError is a scrubbed error that carries its cause's HTTP status code.
type statusError struct {
	*scrubbedError
	code int
}

// HTTPStatusCode returns the cause's HTTP status code.
func (e *statusError) HTTPStatusCode() int { return e.code }

// netError is a scrubbed network error.
type netError struct {
	*scrubbedError
	timeout bool
}

// Timeout reports whether the cause was a timeout.
func (e *netError) Timeout() bool { return e.timeout }

// Temporary reports what Timeout reports (net.Error's deprecated method).
func (e *netError) Temporary() bool { return e.timeout }
