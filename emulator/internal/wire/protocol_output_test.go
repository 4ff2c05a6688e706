package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// The output conformance cases of models/protocol_tests/output give, for each suite, shapes, a
// result and the response AWS sends for it. The emulator's XML and JSON encoders write the
// result and must produce the same document, up to the order of structure members and map
// entries, whitespace and the precision of timestamps.

// outputSuite is one suite of models/protocol_tests/output/<protocol>.json.
type outputSuite struct {
	Description string          `json:"description"`
	Metadata    json.RawMessage `json:"metadata"`
	Shapes      json.RawMessage `json:"shapes"`
	Cases       []struct {
		Given struct {
			Name   string `json:"name"`
			Output struct {
				Shape string `json:"shape"`
			} `json:"output"`
		} `json:"given"`
		Result   map[string]any `json:"result"`
		Response struct {
			Body string `json:"body"`
		} `json:"response"`
	} `json:"cases"`
}

// skippedOutputCases test how a client reads responses no server of the model sends, with the
// reason.
var skippedOutputCases = map[string]string{
	"json/3.1": "null items in lists: SDK output structs cannot hold them",
	"json/5.0": "the client ignores members the model lacks",
	"json/7.0": "the client tolerates a payload that is not JSON",
	"json/7.1": "the client tolerates a payload that is not JSON",
}

// jsonTime turns a JSON string holding an ISO 8601 or HTTP date into epoch seconds, so that
// equal instants compare equal whatever their precision.
func jsonTime(s string) string {
	for _, layout := range []string{time.RFC3339Nano, http.TimeFormat} {
		if t, err := time.Parse(layout, s); err == nil {
			return strconv.FormatInt(t.Unix(), 10)
		}
	}
	return s
}

func TestProtocolOutputConformance(t *testing.T) {
	dir := filepath.Join(filepath.Dir(protocolTestsDir(t)), "output")
	for _, protocol := range []string{"query", "ec2", "json"} {
		b, err := os.ReadFile(filepath.Join(dir, protocol+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var suites []outputSuite
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&suites); err != nil {
			t.Fatalf("decode %s: %v", protocol, err)
		}
		for i, suite := range suites {
			for j, c := range suite.Cases {
				t.Run(fmt.Sprintf("%s/%d.%d %s", protocol, i, j, suite.Description), func(t *testing.T) {
					if why, ok := skippedOutputCases[fmt.Sprintf("%s/%d.%d", protocol, i, j)]; ok {
						t.Skip(why)
					}
					doc, _ := json.Marshal(map[string]any{"metadata": suite.Metadata, "shapes": suite.Shapes,
						"operations": map[string]any{c.Given.Name: map[string]any{"output": map[string]string{"shape": c.Given.Output.Shape}}}})
					m, err := models.Parse("protocoltest", doc)
					if err != nil {
						t.Fatal(err)
					}
					schema := m.OutputSchema(c.Given.Name)
					if protocol == "json" {
						enc := &JSONEncoder{}
						writeTree(enc, schema, c.Result)
						var want, got any
						if err := json.Unmarshal([]byte(c.Response.Body), &want); err != nil {
							t.Fatal(err)
						}
						if err := json.Unmarshal(enc.Bytes(), &got); err != nil {
							t.Fatalf("the encoder wrote malformed JSON %s: %v", enc.Bytes(), err)
						}
						if diff := cmp.Diff(want, got, cmp.Transformer("time", jsonTime)); diff != "" {
							t.Errorf("encoding %v\n-AWS +emulator:\n%s", c.Result, diff)
						}
						return
					}
					enc := &XMLEncoder{}
					writeTree(enc, schema, c.Result)
					got, err := canonicalXML("<Result>"+string(enc.Bytes())+"</Result>", schema)
					if err != nil {
						t.Fatalf("the encoder wrote malformed XML %s: %v", enc.Bytes(), err)
					}
					want, err := expectedResult(protocol, c.Response.Body, schema)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("encoding %v\n-AWS +emulator:\n%s", c.Result, diff)
					}
				})
			}
		}
	}
}

// expectedResult returns the canonical form of the element holding a response's result members:
// the <XResult> element in awsQuery, the response element less its request id in ec2Query.
func expectedResult(protocol, body string, s *smithy.Schema) (string, error) {
	root, err := parseXML([]byte(body))
	if err != nil {
		return "", err
	}
	result := &node{name: "Result"}
	for _, child := range root.children {
		switch {
		case protocol == "query" && child.name == root.name[:len(root.name)-len("Response")]+"Result":
			result.children = child.children
			return canonical(result, s), nil
		case child.name != "RequestId" && child.name != "requestId" && child.name != "ResponseMetadata":
			result.children = append(result.children, child)
		}
	}
	return canonical(result, s), nil
}

// canonicalXML parses an XML document holding a value of schema s into its canonical form.
func canonicalXML(doc string, s *smithy.Schema) (string, error) {
	root, err := parseXML([]byte(doc))
	if err != nil {
		return "", err
	}
	return canonical(root, s), nil
}

// canonical renders n, a value of schema s, with what carries no meaning made uniform: the
// children of a structure sorted by element name (stably, so list items keep their order), map
// entries sorted, text trimmed and timestamps as epoch seconds.
func canonical(n *node, s *smithy.Schema) string {
	children := make([]string, len(n.children))
	for i, c := range n.children {
		children[i] = canonical(c, childSchema(s, c.name))
	}
	order := make([]int, len(children))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := n.children[order[i]], n.children[order[j]]
		if a.name != b.name {
			return a.name < b.name
		}
		// Entries of a map, wrapped or flattened, have no order.
		return isMap(s, a.name) && children[order[i]] < children[order[j]]
	})
	var b strings.Builder
	b.WriteString(n.name + "(")
	if len(children) == 0 {
		text := strings.TrimSpace(n.text)
		for _, layout := range []string{time.RFC3339Nano, http.TimeFormat} {
			if t, err := time.Parse(layout, text); err == nil {
				text = strconv.FormatInt(t.Unix(), 10)
			}
		}
		b.WriteString(text)
	}
	for _, i := range order {
		b.WriteString("\n  " + strings.ReplaceAll(children[i], "\n", "\n  "))
	}
	b.WriteString(")")
	return b.String()
}

// childSchema returns the schema of the child element name of a value of schema s: a
// structure's member (a flattened list's item, a flattened map's entry), a list's item, a map
// entry's key or value.
func childSchema(s *smithy.Schema, name string) *smithy.Schema {
	if s == nil {
		return nil
	}
	switch s.Type() {
	case smithy.ShapeTypeList, smithy.ShapeTypeSet:
		return s.ListMember()
	case smithy.ShapeTypeMap:
		if name == "entry" {
			return s
		}
		if name == xmlName(s.MapValue(), "value") {
			return s.MapValue()
		}
		return s.MapKey()
	case smithy.ShapeTypeStructure:
		for member, m := range s.Members() {
			if xmlName(m, member) != name && !(flattened(m) && m.Type() == smithy.ShapeTypeList && xmlName(m.ListMember(), "") == name) {
				continue
			}
			if flattened(m) && m.Type() == smithy.ShapeTypeList {
				return m.ListMember()
			}
			return m
		}
	}
	return nil
}

// isMap reports whether elements named name under a value of schema s are map entries.
func isMap(s *smithy.Schema, name string) bool {
	if s == nil {
		return false
	}
	if s.Type() == smithy.ShapeTypeMap {
		return name == "entry"
	}
	m := childSchema(s, name)
	return m != nil && m.Type() == smithy.ShapeTypeMap && flattened(m)
}

// writeTree writes v, a JSON value of the conformance suites, as a value of schema s, through
// the serializer calls the emulator's reflection encoder makes for SDK structs.
func writeTree(enc smithy.ShapeSerializer, s *smithy.Schema, v any) {
	if v == nil {
		return
	}
	switch s.Type() {
	case smithy.ShapeTypeStructure:
		obj, _ := v.(map[string]any)
		enc.WriteStruct(s)
		names := make([]string, 0, len(obj))
		for name := range obj {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if m := s.Member(name); m != nil {
				writeTree(enc, m, obj[name])
			}
		}
		enc.CloseStruct()
	case smithy.ShapeTypeList, smithy.ShapeTypeSet:
		items, _ := v.([]any)
		enc.WriteList(s)
		for _, item := range items {
			writeTree(enc, s.ListMember(), item)
		}
		enc.CloseList()
	case smithy.ShapeTypeMap:
		obj, _ := v.(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		enc.WriteMap(s)
		for _, k := range keys {
			enc.WriteKey(s.MapKey(), k)
			writeTree(enc, s.MapValue(), obj[k])
		}
		enc.CloseMap()
	case smithy.ShapeTypeTimestamp:
		n, _ := v.(json.Number).Int64()
		enc.WriteTime(s, time.Unix(n, 0).UTC())
	case smithy.ShapeTypeBlob:
		enc.WriteBlob(s, []byte(fmt.Sprint(v)))
	case smithy.ShapeTypeBoolean:
		enc.WriteBool(s, v == true)
	case smithy.ShapeTypeInteger, smithy.ShapeTypeLong:
		n, _ := v.(json.Number).Int64()
		enc.WriteInt64(s, n)
	case smithy.ShapeTypeFloat, smithy.ShapeTypeDouble:
		f, _ := v.(json.Number).Float64()
		enc.WriteFloat64(s, f)
	default:
		enc.WriteString(s, fmt.Sprint(v))
	}
}
