package emulator

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// adminPrefix is where the emulator's own endpoints live.
const adminPrefix = "/_emulator/"

// adminTokenHeader is the header that may carry the admin token instead of Authorization.
const adminTokenHeader = "X-Emulator-Token"

// authorizeAdmin reports whether r may use the admin endpoints: always when the server has no
// admin token, otherwise only when r presents it (compared in constant time). It answers 401
// when r presents no token and 403 when it presents a wrong one.
func (s *Server) authorizeAdmin(w http.ResponseWriter, r *http.Request) bool {
	if s.adminToken == "" {
		return true
	}
	presented, ok := adminTokenOf(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="infra-operator emulator admin"`)
		http.Error(w, "the emulator's admin endpoints need its admin token: send \"Authorization: Bearer <token>\" or \""+adminTokenHeader+": <token>\"", http.StatusUnauthorized)
		return false
	}
	// Hashing first makes the comparison take the same time whatever the presented length.
	want, got := sha256.Sum256([]byte(s.adminToken)), sha256.Sum256([]byte(presented))
	if subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
		http.Error(w, "the emulator's admin token is wrong", http.StatusForbidden)
		return false
	}
	return true
}

// adminTokenOf returns the token r presents: a Bearer Authorization header, else the
// X-Emulator-Token header.
func adminTokenOf(r *http.Request) (string, bool) {
	if scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token), true
	}
	if token := r.Header.Get(adminTokenHeader); token != "" {
		return token, true
	}
	return "", false
}

// serveAdmin answers the admin endpoints:
//
//	GET    /_emulator/calls                 call counts: service -> operation -> outcome -> n
//	DELETE /_emulator/calls                 reset the counts
//	GET    /_emulator/faults                the faults in force
//	PUT    /_emulator/faults                replace them: {"SQS.CreateQueue": {"throttleRate": 0.5}}
//	POST   /_emulator/clock?advance=90s     move the simulation clock forward
//	GET    /_emulator/state                 every service's state, for debugging
//
// When Options.AdminToken is set, only requests that authorizeAdmin lets through get here.
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) {
	switch r.Method + " " + r.URL.Path[len(adminPrefix):] {
	case "GET calls":
		writeJSON(w, s.Calls.Snapshot())
	case "DELETE calls":
		s.Calls.Reset()
		w.WriteHeader(http.StatusNoContent)
	case "GET faults":
		writeJSON(w, s.Faults.All())
	case "PUT faults":
		var faults map[string]core.Fault
		if err := json.NewDecoder(r.Body).Decode(&faults); err != nil {
			http.Error(w, "faults must be a JSON object of Fault by \"Service\" or \"Service.Operation\": "+err.Error(), http.StatusBadRequest)
			return
		}
		for k := range s.Faults.All() {
			s.Faults.Set(k, core.Fault{})
		}
		for k, f := range faults {
			s.Faults.Set(k, f)
		}
		writeJSON(w, s.Faults.All())
	case "POST clock":
		d, err := time.ParseDuration(r.URL.Query().Get("advance"))
		if err != nil || d < 0 {
			http.Error(w, "advance must be a non-negative duration such as 90s", http.StatusBadRequest)
			return
		}
		s.Clock.Advance(d)
		writeJSON(w, map[string]time.Time{"now": s.Clock.Now()})
	case "GET state":
		state := map[string]any{}
		for _, svc := range s.Services() {
			if svc.Dump != nil {
				state[svc.ID] = svc.Dump()
			}
		}
		writeJSON(w, state)
	default:
		http.Error(w, "unknown admin endpoint; see the emulator package documentation", http.StatusNotFound)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
