package e2e

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite generated example files")

const (
	healthScript = "../examples/gitops/argocd/health.lua"
	healthConfig = "../examples/gitops/argocd/argocd-cm-health.yaml"
)

// TestArgoCDHealthConfig checks that the argocd-cm example holds the health check for every
// kind the operators serve, each exactly health.lua; -update rewrites it.
func TestArgoCDHealthConfig(t *testing.T) {
	script, err := os.ReadFile(healthScript)
	if err != nil {
		t.Fatal(err)
	}
	defs, err := allCRDKinds()
	if err != nil {
		t.Fatal(err)
	}
	want := healthConfigMap(defs, string(script))
	if *update {
		if err := os.WriteFile(healthConfig, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(healthConfig)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run `(cd e2e && go test -run TestArgoCDHealthConfig . -update)`", healthConfig)
	}
	var cm struct{ Data map[string]string }
	if err := yaml.Unmarshal(got, &cm); err != nil || len(cm.Data) != len(defs) {
		t.Errorf("argocd-cm does not parse into %d health checks (%d, %v)", len(defs), len(cm.Data), err)
	}
}

// allCRDKinds returns every kind of the shared API and the families that Argo CD may show,
// sorted: every kind but Preview, a request infractl plan makes and deletes, never in Git.
func allCRDKinds() ([]string, error) {
	defs, err := CRDKinds()
	if err != nil {
		return nil, err
	}
	defs = slices.DeleteFunc(defs, func(k string) bool { return k == "Preview" })
	sort.Strings(defs)
	return defs, nil
}

// healthConfigMap renders the argocd-cm ConfigMap that registers script for every kind.
func healthConfigMap(kinds []string, script string) string {
	var b strings.Builder
	b.WriteString(`# Argo CD health checks for every infra-operator kind, generated from health.lua by
# (cd e2e && go test -run TestArgoCDHealthConfig . -update). Merge these keys into your argocd-cm
# ConfigMap (or the Argo CD Helm chart's configs.cm values).
apiVersion: v1
kind: ConfigMap
metadata:
  name: argocd-cm
  namespace: argocd
  labels:
    app.kubernetes.io/part-of: argocd
data:
`)
	for _, k := range kinds {
		fmt.Fprintf(&b, "  resource.customizations.health.aws-infra-operator.runner.codes_%s: |\n", k)
		for _, line := range strings.Split(strings.TrimRight(script, "\n"), "\n") {
			if line == "" {
				b.WriteString("\n")
				continue
			}
			b.WriteString("    " + line + "\n")
		}
	}
	return b.String()
}

// TestArgoCDHealthCheck runs health.lua, as Argo CD does (the object in the global obj), on
// objects in every state the operators report.
func TestArgoCDHealthCheck(t *testing.T) {
	script, err := os.ReadFile(healthScript)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason      string
		obj         string
		wantStatus  string
		wantMessage string
	}{
		"new": {reason: "An object the operator has not looked at yet is progressing.",
			obj:        `{"kind":"S3Bucket","metadata":{"generation":1}}`,
			wantStatus: "Progressing", wantMessage: "Waiting for the operator to reconcile"},
		"creating": {reason: "A resource AWS is creating is progressing, with the reason.",
			obj:        `{"kind":"RDSInstance","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"Creating","message":"DB instance is creating","observedGeneration":1}]}}`,
			wantStatus: "Progressing", wantMessage: "Creating: DB instance is creating"},
		"ready": {reason: "Ready for the current generation is healthy.",
			obj:        `{"kind":"S3Bucket","metadata":{"generation":2},"status":{"observedGeneration":2,"conditions":[{"type":"Ready","status":"True","reason":"Available","observedGeneration":2},{"type":"Synced","status":"True","reason":"ReconcileSuccess","observedGeneration":2}]}}`,
			wantStatus: "Healthy"},
		"drifted": {reason: "A Ready resource whose drift is reported stays healthy and says so.",
			obj:        `{"kind":"SQSQueue","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","observedGeneration":1},{"type":"Drifted","status":"True","reason":"DriftReported","message":"SQSQueue differs from the spec in visibilityTimeout","observedGeneration":1}]}}`,
			wantStatus: "Healthy", wantMessage: "Drifted: DriftReported: SQSQueue differs from the spec in visibilityTimeout"},
		"drift restored": {reason: "A drift the operator restored leaves the resource healthy, with no drift message.",
			obj:        `{"kind":"SQSQueue","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","observedGeneration":1},{"type":"Drifted","status":"False","reason":"DriftRestored","message":"restored visibilityTimeout","observedGeneration":1}]}}`,
			wantStatus: "Healthy"},
		"plan pending": {reason: "A resource whose changes wait for approval is suspended, with how to approve them.",
			obj:        `{"kind":"SQSQueue","metadata":{"generation":2},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","observedGeneration":2},{"type":"PlanPending","status":"True","reason":"AwaitingApproval","message":"annotate with approve-plan=3f9c2a71b0de","observedGeneration":2}]}}`,
			wantStatus: "Suspended", wantMessage: "AwaitingApproval: annotate with approve-plan=3f9c2a71b0de"},
		"plan applied": {reason: "A resource whose approved plan was applied is healthy again.",
			obj:        `{"kind":"SQSQueue","metadata":{"generation":2},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","observedGeneration":2},{"type":"PlanPending","status":"False","reason":"PlanApproved","message":"applied the plan 3f9c2a71b0de","observedGeneration":2}]}}`,
			wantStatus: "Healthy"},
		"ready for an older generation": {reason: "A spec change not yet applied is progressing, not healthy.",
			obj:        `{"kind":"S3Bucket","metadata":{"generation":3},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Updating","message":"applying spec changes","observedGeneration":2}]}}`,
			wantStatus: "Progressing", wantMessage: "Updating: applying spec changes"},
		"stalled": {reason: "A terminal error is degraded with its reason.",
			obj:        `{"kind":"DynamoDBTable","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"InvalidSpec","message":"bad key","observedGeneration":1},{"type":"Stalled","status":"True","reason":"InvalidSpec","message":"bad key","observedGeneration":1}]}}`,
			wantStatus: "Degraded", wantMessage: "InvalidSpec: bad key"},
		"unavailable": {reason: "A resource that was Ready and stopped being available is degraded.",
			obj:        `{"kind":"RDSInstance","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"Unavailable","message":"DB instance is storage-full","observedGeneration":1}]}}`,
			wantStatus: "Degraded", wantMessage: "Unavailable: DB instance is storage-full"},
		"provider refused": {reason: "An AWSProvider whose credentials are refused is degraded.",
			obj:        `{"kind":"AWSProvider","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"CredentialsRejected","message":"STS refused the keys","observedGeneration":1}]}}`,
			wantStatus: "Degraded", wantMessage: "CredentialsRejected: STS refused the keys"},
		"cluster provider refused": {reason: "A ClusterAWSProvider whose credentials are refused is degraded.",
			obj:        `{"kind":"ClusterAWSProvider","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"CredentialsRejected","message":"STS refused the keys","observedGeneration":1}]}}`,
			wantStatus: "Degraded", wantMessage: "CredentialsRejected: STS refused the keys"},
		"waiting for a Secret": {reason: "A resource waiting for a Secret is progressing, with the reason.",
			obj:        `{"kind":"RDSInstance","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"SecretNotFound","message":"Secret default/pw does not exist","observedGeneration":1}]}}`,
			wantStatus: "Progressing", wantMessage: "SecretNotFound: Secret default/pw does not exist"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			status, message, err := runHealth(string(script), tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			if status != tc.wantStatus || message != tc.wantMessage {
				t.Errorf("%s\ngot %s %q, want %s %q", tc.reason, status, message, tc.wantStatus, tc.wantMessage)
			}
		})
	}
}

// runHealth runs a health script on the JSON object objJSON and returns hs.status and
// hs.message.
func runHealth(script, objJSON string) (string, string, error) {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(objJSON), &obj); err != nil {
		return "", "", err
	}
	L := lua.NewState()
	defer L.Close()
	L.SetGlobal("obj", toLua(L, obj))
	if err := L.DoString(script); err != nil {
		return "", "", fmt.Errorf("run the health script: %w", err)
	}
	hs, ok := L.Get(-1).(*lua.LTable)
	if !ok {
		return "", "", fmt.Errorf("the health script returned %s, not a table", L.Get(-1).Type())
	}
	return lua.LVAsString(hs.RawGetString("status")), lua.LVAsString(hs.RawGetString("message")), nil
}

// toLua converts decoded JSON into Lua values, as Argo CD does for obj.
func toLua(L *lua.LState, v any) lua.LValue {
	switch x := v.(type) {
	case map[string]any:
		t := L.NewTable()
		for k, e := range x {
			t.RawSetString(k, toLua(L, e))
		}
		return t
	case []any:
		t := L.NewTable()
		for _, e := range x {
			t.Append(toLua(L, e))
		}
		return t
	case string:
		return lua.LString(x)
	case float64:
		return lua.LNumber(x)
	case int64:
		return lua.LNumber(x)
	case bool:
		return lua.LBool(x)
	}
	return lua.LNil
}
