package emulator_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"
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
				if _, err := os.Stat(filepath.Join(dir, "request_snapshot")); errors.Is(err, fs.ErrNotExist) {
					// Some service modules (API Gateway's) ship no request snapshots at all; their
					// requests are covered by the service's tests through the SDK client.
					t.Skipf("%s ships no request snapshots", dir)
				}
				headers, body := readSnapshot(t, filepath.Join(dir, "request_snapshot", name+".request.snap"))
				switch svc.Protocol {
				case core.ProtocolRESTXML:
					checkREST(t, svc, name, headers, body, in, wire.DecodeREST, leafValues)
					return
				case core.ProtocolRESTJSON:
					checkREST(t, svc, name, headers, body, in, wire.DecodeRESTJSON, jsonLeaves)
					return
				}
				switch svc.Protocol {
				case core.ProtocolQuery:
					checkQuery(t, body, in, svc.InputSchema(name), wire.DecodeQuery)
					return
				case core.ProtocolEC2Query:
					checkQuery(t, body, in, svc.InputSchema(name), wire.DecodeEC2Query)
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
func checkQuery(t *testing.T, body []byte, in any, schema *smithy.Schema, decode func(url.Values, any, *smithy.Schema) error) {
	t.Helper()
	form, err := url.ParseQuery(string(body))
	if err != nil {
		t.Fatal(err)
	}
	if err := decode(form, in, schema); err != nil {
		t.Fatalf("decode: %v", err)
	}
	var want []string
	for k, vs := range form {
		// DestinationRegion is RDS's member of a cross-region presigned URL, an unexported field
		// of the SDK's input that no decoder can set; the emulator serves no cross-region copy.
		if k != "Action" && k != "Version" && k != "DestinationRegion" {
			want = append(want, vs...)
		}
	}
	enc := &wire.XMLEncoder{}
	wire.Encode(enc, in, schema)
	got := leafValues(t, enc.Bytes())
	// The encoder writes timestamps with milliseconds, which a request may leave out.
	normalizeTimes(want)
	normalizeTimes(got)
	sort.Strings(want)
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parameter values were dropped or invented\n-snapshot +decoded:\n%s", diff)
	}
}

// normalizeTimes rewrites every value that is an RFC 3339 timestamp in one form, so that
// "2000-01-01T00:00:00Z" and "2000-01-01T00:00:00.000Z" compare equal.
func normalizeTimes(values []string) {
	for i, v := range values {
		if ts, err := time.Parse(time.RFC3339Nano, v); err == nil {
			values[i] = ts.UTC().Format(time.RFC3339Nano)
		}
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

// checkREST routes a REST request snapshot (made path-style) to its operation, decodes it, and
// checks that every value the model binds (URI labels, query parameters, headers, XML or raw
// body) reaches the input.
func checkREST(t *testing.T, svc *core.Service, name string, headers map[string]string, body []byte, in any,
	decode func(*http.Request, []byte, map[string]string, any, *smithy.Schema) error, leaves func(*testing.T, []byte) []string) {
	t.Helper()
	method, target, _ := strings.Cut(headers[requestLine], " ")
	schema := svc.InputSchema(name)
	if schema == nil {
		schema = wire.SchemaFor(reflect.TypeOf(in))
	}
	if _, hasBucket := reflect.TypeOf(in).Elem().FieldByName("Bucket"); hasBucket {
		target = "/__Bucket__" + strings.TrimSuffix(target, "/")
		target = strings.Replace(target, "/?", "?", 1)
	}
	r := httptest.NewRequest(method, target, bytes.NewReader(body))
	for k, v := range headers {
		if k != requestLine {
			r.Header.Set(k, v)
		}
	}
	op, labels := emulator.MatchREST(svc, r)
	if op != name {
		t.Fatalf("%s %s routes to %q, want %s", method, target, op, name)
	}
	if err := decode(r, body, labels, in, schema); err != nil {
		t.Fatalf("decode: %v", err)
	}
	var want []string
	seen := map[string]bool{}
	for _, v := range labels {
		if !seen[v] { // Labels are keyed by template name and by member name.
			want = append(want, v)
			seen[v] = true
		}
	}
	for _, m := range schema.Members() {
		if h, ok := smithy.SchemaDirectTrait[*traits.HTTPHeader](m); ok && r.Header.Get(h.Name) != "" {
			for _, item := range strings.Split(r.Header.Get(h.Name), ",") {
				if m.Type() != smithy.ShapeTypeList {
					item = r.Header.Get(h.Name)
				}
				want = append(want, strings.TrimSpace(item))
				if m.Type() != smithy.ShapeTypeList {
					break
				}
			}
		}
		if q, ok := smithy.SchemaDirectTrait[*traits.HTTPQuery](m); ok {
			want = append(want, r.URL.Query()[q.Name]...)
		}
	}
	if len(body) > 0 && (body[0] == '<' || body[0] == '{') {
		want = append(want, leaves(t, body)...)
	} else if len(body) > 0 {
		want = append(want, string(body))
	}
	got := map[string]int{}
	collectLeaves(reflect.ValueOf(in), got)
	for _, v := range want {
		if ts, err := time.Parse(time.RFC3339, v); err == nil {
			v = ts.UTC().Format(http.TimeFormat) // Body timestamps are ISO 8601, header ones HTTP dates.
		}
		if got[v] == 0 {
			t.Errorf("the value %q of the request did not reach the decoded input", v)
			continue
		}
		got[v]--
	}
}

// collectLeaves counts the text of every set leaf of v.
func collectLeaves(v reflect.Value, out map[string]int) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if r, ok := v.Interface().(io.Reader); ok {
			b, _ := io.ReadAll(r)
			out[string(b)]++
			return
		}
		collectLeaves(v.Elem(), out)
	case reflect.Struct:
		if t, ok := v.Interface().(time.Time); ok {
			// Headers carry HTTP dates, JSON bodies epoch seconds.
			out[t.UTC().Format(http.TimeFormat)]++
			out[strconv.FormatInt(t.Unix(), 10)]++
			return
		}
		exported := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				exported++
				collectLeaves(v.Field(i), out)
			}
		}
		if exported == 0 {
			out[""]++ // A structure without members (S3's EventBridgeConfiguration) is an empty element.
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			out[string(v.Bytes())]++
			out[base64.StdEncoding.EncodeToString(v.Bytes())]++ // JSON carries blobs in base64.
			return
		}
		for i := 0; i < v.Len(); i++ {
			collectLeaves(v.Index(i), out)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			out[iter.Key().String()]++
			collectLeaves(iter.Value(), out)
		}
	case reflect.String:
		out[v.String()]++
	case reflect.Bool:
		out[strconv.FormatBool(v.Bool())]++
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		out[strconv.FormatInt(v.Int(), 10)]++
	case reflect.Float32, reflect.Float64:
		out[strconv.FormatFloat(v.Float(), 'f', -1, 64)]++
	}
}

// jsonLeaves returns the scalar values of a JSON document, as text.
func jsonLeaves(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("snapshot body is not JSON: %v", err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, item := range x {
				walk(item)
			}
		case []any:
			for _, item := range x {
				walk(item)
			}
		case nil:
		default:
			out = append(out, fmt.Sprint(x))
		}
	}
	walk(doc)
	return out
}

// requestLine is the key under which readSnapshot returns the request line.
const requestLine = ":request"

func readSnapshot(t *testing.T, path string) (map[string]string, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no request snapshot for this operation in the SDK module: %v", err)
	}
	r := bufio.NewReader(bytes.NewReader(raw))
	headers := map[string]string{}
	line, _ := r.ReadString('\n')
	headers[requestLine] = strings.TrimSpace(line)
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
