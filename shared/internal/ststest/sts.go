// Package ststest is a narrow STS stand-in for the shared library's own tests, which may not
// import the emulator. It speaks STS's awsQuery protocol for GetCallerIdentity and AssumeRole,
// accepts only the access keys it was given, counts calls, and records the role sessions it
// opened (name, tags, external ID). Credentials of an assumed role are, to GetCallerIdentity,
// arn:aws:sts::ACCOUNT:assumed-role/ROLE/SESSION_NAME, as to AWS.
package ststest

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
)

// Server is an STS endpoint.
type Server struct {
	// Accounts maps each accepted access key ID to its account ID.
	Accounts map[string]string

	mu       sync.Mutex
	issued   map[string]issued
	counter  atomic.Int64
	calls    map[string]int
	sessions []Session
}

// Session is one role session the server opened.
type Session struct {
	// Action is AssumeRole or AssumeRoleWithWebIdentity.
	Action string
	// RoleARN is the assumed role.
	RoleARN string
	// Name is the role session name.
	Name string
	// Tags are the session tags, by key.
	Tags map[string]string
	// ExternalID is the external ID given, or "".
	ExternalID string
}

// issued is what one access key the server issued stands for.
type issued struct {
	account string
	arn     string
}

var credentialRE = regexp.MustCompile(`Credential=([^/,\s]+)/`)

// ServeHTTP answers one STS request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.fail(w, http.StatusBadRequest, "MalformedQueryString", "cannot parse the request body")
		return
	}
	action := r.PostForm.Get("Action")
	s.count(action)
	if action == "AssumeRoleWithWebIdentity" {
		// This call is unsigned: the web identity token is the credential.
		s.assumeRoleWithWebIdentity(w, r)
		return
	}
	m := credentialRE.FindStringSubmatch(r.Header.Get("Authorization"))
	if m == nil {
		s.fail(w, http.StatusForbidden, "MissingAuthenticationToken", "Request is missing Authentication Token")
		return
	}
	account, ok := s.account(m[1])
	if !ok {
		s.fail(w, http.StatusForbidden, "InvalidClientTokenId", "The security token included in the request is invalid.")
		return
	}
	switch action {
	case "GetCallerIdentity":
		s.respond(w, "GetCallerIdentity", fmt.Sprintf(
			"<Arn>%s</Arn><UserId>AIDATESTER</UserId><Account>%s</Account>", xmlEscape(s.arn(m[1], account)), account))
	case "AssumeRole":
		s.issueRoleCredentials(w, r, "AssumeRole")
	default:
		s.fail(w, http.StatusBadRequest, "InvalidAction", fmt.Sprintf("Could not find operation %s for version 2011-06-15", action))
	}
}

// WebIdentityToken is the only web identity token AssumeRoleWithWebIdentity accepts.
const WebIdentityToken = "test-web-identity-token"

func (s *Server) assumeRoleWithWebIdentity(w http.ResponseWriter, r *http.Request) {
	if r.PostForm.Get("WebIdentityToken") != WebIdentityToken {
		s.fail(w, http.StatusBadRequest, "InvalidIdentityToken", "The web identity token is not valid")
		return
	}
	s.issueRoleCredentials(w, r, "AssumeRoleWithWebIdentity")
}

// issueRoleCredentials answers an AssumeRole-style action with temporary credentials whose
// access key belongs to the role's account.
func (s *Server) issueRoleCredentials(w http.ResponseWriter, r *http.Request, action string) {
	role := r.PostForm.Get("RoleArn")
	parts := strings.Split(role, ":")
	if len(parts) < 6 {
		s.fail(w, http.StatusBadRequest, "ValidationError", "RoleArn is not a valid ARN")
		return
	}
	name := r.PostForm.Get("RoleSessionName")
	session := Session{Action: action, RoleARN: role, Name: name, ExternalID: r.PostForm.Get("ExternalId")}
	for i := 1; r.PostForm.Has(fmt.Sprintf("Tags.member.%d.Key", i)); i++ {
		if session.Tags == nil {
			session.Tags = map[string]string{}
		}
		session.Tags[r.PostForm.Get(fmt.Sprintf("Tags.member.%d.Key", i))] = r.PostForm.Get(fmt.Sprintf("Tags.member.%d.Value", i))
	}
	roleName := role[strings.LastIndex(role, "/")+1:]
	key := fmt.Sprintf("ASIATEST%08d", s.counter.Add(1))
	s.mu.Lock()
	if s.issued == nil {
		s.issued = map[string]issued{}
	}
	s.issued[key] = issued{account: parts[4], arn: fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/%s", parts[4], roleName, name)}
	s.sessions = append(s.sessions, session)
	s.mu.Unlock()
	s.respond(w, action, fmt.Sprintf(
		"<Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>temporary</SecretAccessKey>"+
			"<SessionToken>token</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>"+
			"<AssumedRoleUser><Arn>%s</Arn><AssumedRoleId>AROATEST:%s</AssumedRoleId></AssumedRoleUser>",
		key, xmlEscape(role), xmlEscape(r.PostForm.Get("RoleSessionName"))))
}

// Sessions returns the role sessions opened so far, in order.
func (s *Server) Sessions() []Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Session(nil), s.sessions...)
}

// Calls returns how many requests named action were received.
func (s *Server) Calls(action string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[action]
}

func (s *Server) count(action string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	s.calls[action]++
}

func (s *Server) account(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.Accounts[key]; ok {
		return a, true
	}
	a, ok := s.issued[key]
	return a.account, ok
}

// arn returns the identity of access key key of account: the assumed role's session, or a
// user.
func (s *Server) arn(key, account string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.issued[key]; ok {
		return a.arn
	}
	return fmt.Sprintf("arn:aws:iam::%s:user/tester", account)
}

func (s *Server) respond(w http.ResponseWriter, action, result string) {
	w.Header().Set("Content-Type", "text/xml")
	fmt.Fprintf(w, `<%sResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><%sResult>%s</%sResult>`+
		`<ResponseMetadata><RequestId>test</RequestId></ResponseMetadata></%sResponse>`, action, action, result, action, action)
}

func (s *Server) fail(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type>`+
		`<Code>%s</Code><Message>%s</Message></Error><RequestId>test</RequestId></ErrorResponse>`, code, xmlEscape(msg))
}

func xmlEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
