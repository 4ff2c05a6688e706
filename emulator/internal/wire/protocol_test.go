package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// The aws-sdk-go v1 module ships AWS's protocol conformance cases: for each, shapes, the params
// a client is given and the request it must send. The emulator's decoders run them backwards:
// the serialized request must decode to the params.

// protocolSuite is one suite of models/protocol_tests/input/<protocol>.json.
type protocolSuite struct {
	Description string          `json:"description"`
	Metadata    json.RawMessage `json:"metadata"`
	Shapes      json.RawMessage `json:"shapes"`
	Cases       []struct {
		Given struct {
			Name  string          `json:"name"`
			HTTP  json.RawMessage `json:"http"`
			Input struct {
				Shape   string `json:"shape"`
				Payload string `json:"payload"`
			} `json:"input"`
		} `json:"given"`
		Params     any `json:"params"`
		Serialized struct {
			Method  string            `json:"method"`
			URI     string            `json:"uri"`
			Body    string            `json:"body"`
			Headers map[string]string `json:"headers"`
		} `json:"serialized"`
	} `json:"cases"`
}

// skippedCases are conformance cases that test client-side behaviour, with the reason.
var skippedCases = map[string]string{
	"query/13.1":     "the client fills in an idempotency token the params do not hold",
	"ec2/8.1":        "the client fills in an idempotency token the params do not hold",
	"rest-xml/23.1":  "the client fills in an idempotency token the params do not hold",
	"rest-json/19.1": "the client fills in an idempotency token the params do not hold",
	"rest-xml/19.0":  "XML attributes (S3 ACL grantees) are not decoded; no emulated operation takes one",
	"rest-xml/26.0":  "HTTP servers strip the whitespace around header values (RFC 9110 section 5.5); net/http does",
	"rest-json/20.0": "the jsonvalue trait is not decoded; no emulated operation has one",
	"rest-json/20.1": "the jsonvalue trait is not decoded; no emulated operation has one",
	"rest-json/20.2": "the jsonvalue trait is not decoded; no emulated operation has one",
}

func protocolTestsDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/aws/aws-sdk-go@v1.55.8").Output()
	if err != nil {
		t.Fatalf("download the AWS protocol tests: %v", err)
	}
	var dl struct{ Dir string }
	if err := json.Unmarshal(out, &dl); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dl.Dir, "models", "protocol_tests", "input")
}

func TestProtocolConformance(t *testing.T) {
	dir := protocolTestsDir(t)
	for _, protocol := range []string{"query", "ec2", "rest-xml", "rest-json"} {
		b, err := os.ReadFile(filepath.Join(dir, protocol+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var suites []protocolSuite
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&suites); err != nil {
			t.Fatalf("decode %s: %v", protocol, err)
		}
		for i, suite := range suites {
			for j, c := range suite.Cases {
				name := fmt.Sprintf("%s/%d.%d %s", protocol, i, j, suite.Description)
				t.Run(name, func(t *testing.T) {
					if why, ok := skippedCases[fmt.Sprintf("%s/%d.%d", protocol, i, j)]; ok {
						t.Skip(why)
					}
					shapes := suite.Shapes
					if c.Given.Input.Payload != "" {
						// The suites put the payload on the operation's input; models put it on the shape.
						var all map[string]map[string]any
						if err := json.Unmarshal(shapes, &all); err != nil {
							t.Fatal(err)
						}
						all[c.Given.Input.Shape]["payload"] = c.Given.Input.Payload
						shapes, _ = json.Marshal(all)
					}
					doc, _ := json.Marshal(map[string]any{"metadata": suite.Metadata, "shapes": shapes,
						"operations": map[string]any{c.Given.Name: map[string]any{"http": c.Given.HTTP, "input": c.Given.Input}}})
					m, err := models.Parse("protocoltest", doc)
					if err != nil {
						t.Fatal(err)
					}
					if c.Params == nil {
						c.Params = map[string]any{}
					}
					schema := m.InputSchema(c.Given.Name)
					if schema == nil {
						if p, _ := c.Params.(map[string]any); len(p) > 0 {
							t.Fatalf("the operation takes no input, yet params are %v", c.Params)
						}
						return
					}
					tree, err := decodeSerialized(protocol, m, c.Given.Name, schema, c.Serialized.Method, c.Serialized.URI, c.Serialized.Body, c.Serialized.Headers)
					if err != nil {
						t.Fatal(err)
					}
					want, got := normalize(c.Params, schema, false), normalize(tree, schema, true)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("decoding %q %s\n-params +decoded:\n%s", c.Serialized.URI, c.Serialized.Body, diff)
					}
				})
			}
		}
	}
}

// decodeSerialized decodes a serialized request into a tree of member values.
func decodeSerialized(protocol string, m *models.Model, op string, schema *smithy.Schema, method, uri, body string, headers map[string]string) (any, error) {
	switch protocol {
	case "query", "ec2":
		form, err := url.ParseQuery(body)
		if err != nil {
			return nil, err
		}
		folded := url.Values{}
		for k, v := range form {
			folded[strings.ToLower(k)] = v
		}
		d := awsQuery
		if protocol == "ec2" {
			d = ec2Query
		}
		tree := d.queryStruct(folded, schema, "")
		if tree == nil {
			tree = map[string]any{}
		}
		return tree, nil
	}
	if method == "" {
		method = m.HTTP(op).Method
	}
	r := httptest.NewRequest(method, uri, strings.NewReader(body))
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	labels := uriLabels(m.HTTP(op).RequestURI, r.URL.EscapedPath())
	if protocol == "rest-xml" {
		tree, payload, err := restXMLTree(r, []byte(body), labels, schema)
		if err == nil && payload != "" && schema.Member(payload).Type() != smithy.ShapeTypeStructure && body != "" {
			tree[payload] = rawPayload(schema.Member(payload), body)
		}
		return tree, err
	}
	tree, payload, err := restJSONTree(r, []byte(body), labels, schema)
	if err == nil && payload != "" && schema.Member(payload).Type() != smithy.ShapeTypeStructure && body != "" {
		tree[payload] = rawPayload(schema.Member(payload), body)
	}
	return tree, err
}

// rawPayload is how a tree holds a raw body: a blob base64-encoded, as a blob is anywhere else
// in a tree, and a string as it is.
func rawPayload(m *smithy.Schema, body string) any {
	if m.Type() == smithy.ShapeTypeBlob {
		return base64.StdEncoding.EncodeToString([]byte(body))
	}
	return body
}

// uriLabels extracts the values of a URI template's labels from a request path.
func uriLabels(template, path string) map[string]string {
	tmpl, _, _ := strings.Cut(template, "?")
	ts := strings.Split(strings.Trim(tmpl, "/"), "/")
	ps := strings.Split(strings.Trim(path, "/"), "/")
	labels := map[string]string{}
	for i, seg := range ts {
		if i >= len(ps) || !strings.HasPrefix(seg, "{") {
			continue
		}
		if strings.HasSuffix(seg, "+}") {
			v, _ := url.PathUnescape(strings.Join(ps[i:], "/"))
			labels[strings.Trim(seg, "{+}")] = v
			break
		}
		v, _ := url.PathUnescape(ps[i])
		labels[strings.Trim(seg, "{}")] = v
	}
	return labels
}

// normalize turns a value of schema s into comparable text: numbers, booleans and timestamps
// as text (timestamps as epoch seconds), blobs as their raw bytes, empty structures as absent. Blobs in a decoded tree are
// still base64 text, as on the wire; in params they are raw.
func normalize(v any, s *smithy.Schema, decoded bool) any {
	if v == nil || s == nil {
		return nil
	}
	switch s.Type() {
	case smithy.ShapeTypeStructure, smithy.ShapeTypeUnion:
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprint(v)
		}
		out := map[string]any{}
		for name, m := range s.Members() {
			val, ok := obj[name]
			if !ok || val == nil {
				continue
			}
			n := normalize(val, m, decoded)
			if nested, ok := n.(map[string]any); ok && len(nested) == 0 && m.Type() == smithy.ShapeTypeStructure {
				continue // A client sends an absent structure payload as {}.
			}
			out[name] = n
		}
		return out
	case smithy.ShapeTypeList, smithy.ShapeTypeSet:
		items, ok := v.([]any)
		if !ok {
			return fmt.Sprint(v)
		}
		out := make([]any, len(items))
		for i, item := range items {
			out[i] = normalize(item, s.ListMember(), decoded)
		}
		return out
	case smithy.ShapeTypeMap:
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprint(v)
		}
		out := map[string]any{}
		for k, val := range obj {
			out[k] = normalize(val, s.MapValue(), decoded)
		}
		return out
	case smithy.ShapeTypeTimestamp:
		if t, err := parseTime(v); err == nil {
			return strconv.FormatInt(t.Unix(), 10)
		}
		return fmt.Sprint(v)
	case smithy.ShapeTypeBlob:
		str := fmt.Sprint(v)
		if !decoded {
			return str
		}
		raw, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return "not base64: " + str
		}
		return string(raw)
	case smithy.ShapeTypeBoolean, smithy.ShapeTypeInteger, smithy.ShapeTypeLong, smithy.ShapeTypeFloat, smithy.ShapeTypeDouble:
		if f, err := strconv.ParseFloat(fmt.Sprint(v), 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return fmt.Sprint(v)
	default:
		return fmt.Sprint(v)
	}
}
