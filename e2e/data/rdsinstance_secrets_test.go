package data_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// echoingAWS stands in front of the emulator and refuses CreateDBInstance with an
// InvalidParameterValue error that quotes the request's MasterUserPassword, the way Lambda's
// refusal of an environment over 4 KB quotes every variable. RDS documents no error that
// quotes the password, and the emulator rightly has none, so the echo is put here rather than
// in the emulator; every other request reaches the emulator unchanged.
type echoingAWS struct {
	next http.Handler
	// echoed counts the refusals that quoted the password.
	echoed atomic.Int32
}

func (e *echoingAWS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		e.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("Action") != "CreateDBInstance" {
		e.next.ServeHTTP(w, r)
		return
	}
	e.echoed.Add(1)
	var msg bytes.Buffer
	_ = xml.EscapeText(&msg, []byte("The parameter MasterUserPassword is not a valid password: "+form.Get("MasterUserPassword")))
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte(`<ErrorResponse xmlns="http://rds.amazonaws.com/doc/2014-10-31/"><Error><Type>Sender</Type>` +
		`<Code>InvalidParameterValue</Code><Message>` + msg.String() + `</Message></Error><RequestId>echo</RequestId></ErrorResponse>`))
}

// TestRDSInstancePasswordNotEchoed creates an RDSInstance whose CreateDBInstance is refused
// with an error that quotes the master password read from its Secret: the object is stalled
// with AWSRejectedRequest and the error's text, in which the password is replaced by
// [secret], and the password appears in no condition and no event.
func TestRDSInstancePasswordNotEchoed(t *testing.T) {
	emu := emulator.New(emulator.Options{Transitions: testTransitions})
	front := &echoingAWS{next: emu}
	env := families.Start(t, front, shortWaits, data.Family())
	h := &harness{t: t, env: env, emu: emu, aws: env.AWSConfig(testAccessKey, testSecretKey)}
	ns := env.Namespace(t)
	h.provider(ns, "aws")
	// Characters that XML, JSON and HTML escape, so that every encoding on the way is tried.
	const password = `Tenant<B>&Pa55word-never-shown`
	h.secret(ns, "db-password", "password", password)
	db := rdsInstance(ns, "db", "scrubbed-db", "db-password")
	h.create(db)
	db = waitCondition(h, db, condition.TypeStalled, "True", condition.ReasonAWSRejected)

	if front.echoed.Load() == 0 {
		t.Fatalf("CreateDBInstance never reached the echoing front")
	}
	var texts []string
	for _, c := range db.Status.Conditions {
		texts = append(texts, c.Message)
		if c.Type == condition.TypeSynced && !strings.Contains(c.Message, "is not a valid password: [secret]") {
			t.Errorf("Synced does not report the scrubbed refusal: %s", c.Message)
		}
	}
	var events corev1.EventList
	if err := env.Client.List(context.Background(), &events, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	for _, e := range events.Items {
		texts = append(texts, e.Message)
	}
	if len(kubetest.Events(t, env.Client, db, condition.ReasonAWSRejected)) == 0 {
		t.Errorf("no %s event", condition.ReasonAWSRejected)
	}
	for _, text := range texts {
		if strings.Contains(text, password) || strings.Contains(text, "Pa55word-never-shown") {
			t.Errorf("the password appears in %q", text)
		}
	}
}
