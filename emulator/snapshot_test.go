package emulator_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/wire"
)

// TestRequestSnapshots decodes, for every implemented operation, the exact request the
// aws-sdk-go-v2 client sends (the request_snapshot files its service module ships). JSON
// requests must re-encode to the same JSON, so no member is dropped or renamed; query requests
// must keep every parameter value.
func TestRequestSnapshots(t *testing.T) {
	e := emulator.New(emulator.Options{})
	for _, svc := range e.Services() {
		for name, op := range svc.Operations {
			t.Run(svc.ID+"."+name, func(t *testing.T) {
				in := op.NewInput()
				dir := moduleDir(t, reflect.TypeOf(in).Elem().PkgPath())
				headers, body := readSnapshot(t, filepath.Join(dir, "request_snapshot", name+".request.snap"))
				if svc.Protocol == core.ProtocolQuery {
					checkQuery(t, body, in, svc.InputSchema(name))
					return
				}
				if got := headers["X-Amz-Target"]; got != svc.TargetPrefix+"."+name {
					t.Errorf("X-Amz-Target %q does not route to %s.%s", got, svc.TargetPrefix, name)
				}
				if err := wire.DecodeJSON(body, in, svc.InputSchema(name)); err != nil {
					t.Fatalf("decode: %v", err)
				}
				enc := &wire.JSONEncoder{}
				wire.Encode(enc, in, svc.InputSchema(name))
				var want, got any
				if err := json.Unmarshal(body, &want); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(enc.Bytes(), &got); err != nil {
					t.Fatalf("re-encoded JSON is invalid: %v\n%s", err, enc.Bytes())
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("the decoded request lost or renamed members\n-snapshot +decoded:\n%s", diff)
				}
			})
		}
	}
}

// checkQuery decodes a query request and checks that every parameter value reaches the input.
func checkQuery(t *testing.T, body []byte, in any, schema *smithy.Schema) {
	t.Helper()
	form, err := url.ParseQuery(string(body))
	if err != nil {
		t.Fatal(err)
	}
	if err := wire.DecodeQuery(form, in, schema); err != nil {
		t.Fatalf("decode: %v", err)
	}
	var want []string
	for k, vs := range form {
		if k != "Action" && k != "Version" {
			want = append(want, vs...)
		}
	}
	enc := &wire.XMLEncoder{}
	wire.Encode(enc, in, schema)
	got := leafValues(t, enc.Bytes())
	sort.Strings(want)
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parameter values were dropped or invented\n-snapshot +decoded:\n%s", diff)
	}
}

// leafValues returns the text of every leaf element of an XML fragment.
func leafValues(t *testing.T, fragment []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(append(append([]byte("<r>"), fragment...), "</r>"...)))
	var out []string
	var text string
	leaf, depth := false, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("re-encoded XML is invalid: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			depth++
			leaf, text = true, ""
		case xml.CharData:
			text += string(tk)
		case xml.EndElement:
			depth--
			if leaf && depth > 0 {
				out = append(out, text)
			}
			leaf = false
		}
	}
}

func readSnapshot(t *testing.T, path string) (map[string]string, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no request snapshot for this operation in the SDK module: %v", err)
	}
	r := bufio.NewReader(bytes.NewReader(raw))
	headers := map[string]string{}
	_, _ = r.ReadString('\n') // request line
	_, _ = r.ReadString('\n') // blank line
	for {
		line, err := r.ReadString('\n')
		line = strings.TrimRight(line, "\n")
		if line == "" || err != nil {
			break
		}
		k, v, _ := strings.Cut(line, ": ")
		headers[k] = v
	}
	body, _ := io.ReadAll(r)
	return headers, body
}

var moduleDirs = map[string]string{}

// moduleDir returns where the Go module that holds package pkg is unpacked.
func moduleDir(t *testing.T, pkg string) string {
	t.Helper()
	if dir, ok := moduleDirs[pkg]; ok {
		return dir
	}
	out, err := exec.Command("go", "list", "-f", "{{.Module.Dir}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	moduleDirs[pkg] = strings.TrimSpace(string(out))
	return moduleDirs[pkg]
}
