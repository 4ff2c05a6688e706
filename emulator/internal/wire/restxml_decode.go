package wire

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"
)

// DecodeREST fills in, a pointer to an SDK input struct, from a restXml request as schema's
// HTTP bindings say: labels from the URI, query parameters, headers, and the body: the payload
// member (XML for structures, raw for strings and blobs), or else an XML document holding the
// members the bindings leave.
func DecodeREST(r *http.Request, body []byte, labels map[string]string, in any, schema *smithy.Schema) error {
	schema = inputSchema(in, schema)
	tree, payload, err := restXMLTree(r, body, labels, schema)
	if err != nil {
		return err
	}
	return assignREST(in, schema, tree, payload, body)
}

// restXMLTree reads a restXml request into a tree of member values, and names its payload
// member.
func restXMLTree(r *http.Request, body []byte, labels map[string]string, schema *smithy.Schema) (map[string]any, string, error) {
	tree, payload := bindings(r, labels, schema)
	if len(bytes.TrimSpace(body)) == 0 {
		return tree, payload, nil
	}
	switch {
	case payload != "" && schema.Member(payload).Type() == smithy.ShapeTypeStructure:
		doc, err := xmlDocument(body, schema.Member(payload))
		if err != nil {
			return nil, "", fmt.Errorf("decode the %s document: %w", payload, err)
		}
		tree[payload] = doc
	case payload == "":
		doc, err := xmlDocument(body, schema)
		if err != nil {
			return nil, "", fmt.Errorf("decode the XML body: %w", err)
		}
		for name, v := range doc.(map[string]any) {
			if !bound(schema.Member(name)) {
				tree[name] = v
			}
		}
	}
	return tree, payload, nil
}

// DecodeRESTJSON fills in from a restJson1 request: the HTTP bindings as DecodeREST, and the
// body as a JSON document holding the payload member, or else every member the bindings leave.
func DecodeRESTJSON(r *http.Request, body []byte, labels map[string]string, in any, schema *smithy.Schema) error {
	schema = inputSchema(in, schema)
	tree, payload, err := restJSONTree(r, body, labels, schema)
	if err != nil {
		return err
	}
	return assignREST(in, schema, tree, payload, body)
}

// restJSONTree reads a restJson1 request into a tree of member values, and names its payload
// member.
func restJSONTree(r *http.Request, body []byte, labels map[string]string, schema *smithy.Schema) (map[string]any, string, error) {
	tree, payload := bindings(r, labels, schema)
	if len(bytes.TrimSpace(body)) == 0 || (payload != "" && schema.Member(payload).Type() != smithy.ShapeTypeStructure) {
		return tree, payload, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, "", fmt.Errorf("decode the JSON body: %w", err)
	}
	if payload != "" {
		tree[payload] = doc
		return tree, payload, nil
	}
	for name, m := range schema.Members() {
		if bound(m) {
			continue
		}
		if v, ok := lookupFold(doc, jsonKey(m, name)); ok {
			tree[name] = v
		}
	}
	return tree, payload, nil
}

// assignREST stores the decoded tree in in, and a raw payload in its string or blob member.
func assignREST(in any, schema *smithy.Schema, tree map[string]any, payload string, body []byte) error {
	v := reflect.ValueOf(in).Elem()
	if err := assign(v, schema, tree); err != nil {
		return err
	}
	if payload != "" && schema.Member(payload).Type() != smithy.ShapeTypeStructure {
		setRawPayload(fieldByName(v, payload), body)
	}
	return nil
}

// bound reports whether a member is bound to the URI, query, headers or status rather than the
// body.
func bound(m *smithy.Schema) bool {
	_, label := smithy.SchemaDirectTrait[*traits.HTTPLabel](m)
	_, header := smithy.SchemaDirectTrait[*traits.HTTPHeader](m)
	_, query := smithy.SchemaDirectTrait[*traits.HTTPQuery](m)
	_, prefix := smithy.SchemaDirectTrait[*traits.HTTPPrefixHeaders](m)
	_, params := smithy.SchemaDirectTrait[*traits.HTTPQueryParams](m)
	_, status := smithy.SchemaDirectTrait[*traits.HTTPResponseCode](m)
	return label || header || query || params || prefix || status
}

// jsonKey returns a member's key in a restJson1 document: its jsonName, else the model's
// locationName, else its name.
func jsonKey(m *smithy.Schema, name string) string {
	if t, ok := smithy.SchemaDirectTrait[*traits.JSONName](m); ok && t.Name != "" {
		return t.Name
	}
	return xmlName(m, name)
}

// bindings reads the members bound to the URI, query string and headers into a tree, and
// names the payload member, if any.
func bindings(r *http.Request, labels map[string]string, schema *smithy.Schema) (map[string]any, string) {
	tree := map[string]any{}
	var payload string
	query := r.URL.Query()
	for name, m := range schema.Members() {
		if t, ok := smithy.SchemaDirectTrait[*traits.HTTPHeader](m); ok {
			// A list header may come as one comma-separated value or repeated, as the SDK sends it.
			if v := strings.Join(r.Header.Values(t.Name), ","); v != "" {
				tree[name] = headerTreeValue(m, v)
			}
			continue
		}
		if t, ok := smithy.SchemaDirectTrait[*traits.HTTPQuery](m); ok {
			if vs, ok := query[t.Name]; ok {
				if m.Type() == smithy.ShapeTypeList {
					items := make([]any, len(vs))
					for i, v := range vs {
						items[i] = v
					}
					tree[name] = items
				} else {
					tree[name] = vs[0]
				}
			}
			continue
		}
		if _, ok := smithy.SchemaDirectTrait[*traits.HTTPQueryParams](m); ok {
			if params := queryParams(query, m, schema); len(params) > 0 {
				tree[name] = params
			}
			continue
		}
		if t, ok := smithy.SchemaDirectTrait[*traits.HTTPPrefixHeaders](m); ok {
			meta := map[string]any{}
			for k, vs := range r.Header {
				if strings.HasPrefix(strings.ToLower(k), strings.ToLower(t.Prefix)) {
					meta[strings.ToLower(k[len(t.Prefix):])] = vs[0]
				}
			}
			if len(meta) > 0 {
				tree[name] = meta
			}
			continue
		}
		if _, ok := smithy.SchemaDirectTrait[*traits.HTTPLabel](m); ok {
			if v, ok := labels[xmlName(m, name)]; ok {
				tree[name] = v
			}
			continue
		}
		if _, ok := smithy.SchemaDirectTrait[*traits.HTTPPayload](m); ok {
			payload = name
		}
	}
	return tree, payload
}

// queryParams returns the query parameters that no other member of schema is bound to, for a
// map member m bound to the whole query string: each value a string, or a list when m's values
// are lists.
func queryParams(query url.Values, m, schema *smithy.Schema) map[string]any {
	named := map[string]bool{}
	for _, other := range schema.Members() {
		if t, ok := smithy.SchemaDirectTrait[*traits.HTTPQuery](other); ok {
			named[t.Name] = true
		}
	}
	out := map[string]any{}
	for k, vs := range query {
		if named[k] || len(vs) == 0 {
			continue
		}
		if t := m.MapValue().Type(); t == smithy.ShapeTypeList || t == smithy.ShapeTypeSet {
			items := make([]any, len(vs))
			for i, v := range vs {
				items[i] = v
			}
			out[k] = items
		} else {
			out[k] = vs[0]
		}
	}
	return out
}

// headerTreeValue returns a header's value for the tree: a list member's header holds
// comma-separated items.
func headerTreeValue(m *smithy.Schema, v string) any {
	if m.Type() != smithy.ShapeTypeList && m.Type() != smithy.ShapeTypeSet {
		return v
	}
	var items []any
	for _, item := range strings.Split(v, ",") {
		items = append(items, strings.TrimSpace(item))
	}
	return items
}

// setRawPayload stores a raw body in a string, []byte or io.Reader field.
func setRawPayload(f reflect.Value, body []byte) {
	if !f.IsValid() {
		return
	}
	switch {
	case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.String:
		s := string(body)
		f.Set(reflect.ValueOf(&s))
	case f.Kind() == reflect.Slice:
		f.SetBytes(body)
	case f.Kind() == reflect.Interface && reflect.TypeOf(bytes.NewReader(nil)).Implements(f.Type()):
		f.Set(reflect.ValueOf(bytes.NewReader(body)))
	}
}

// node is one XML element: its name, text and child elements.
type node struct {
	name     string
	text     string
	children []*node
}

// parseXML reads an XML document into its root node.
func parseXML(body []byte) (*node, error) {
	dec := xml.NewDecoder(bytes.NewReader(body))
	var stack []*node
	var root *node
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if root == nil {
				return nil, fmt.Errorf("no root element")
			}
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// xmlDocument parses an XML document whose root element holds a value of schema s.
func xmlDocument(body []byte, s *smithy.Schema) (any, error) {
	root, err := parseXML(body)
	if err != nil {
		return nil, err
	}
	return xmlValue(root, s), nil
}

// xmlValue reads n as a value of schema s.
func xmlValue(n *node, s *smithy.Schema) any {
	switch s.Type() {
	case smithy.ShapeTypeStructure, smithy.ShapeTypeUnion:
		return xmlStruct(n, s)
	case smithy.ShapeTypeList, smithy.ShapeTypeSet:
		items := []any{}
		for _, child := range n.children {
			items = append(items, xmlValue(child, s.ListMember()))
		}
		return items
	case smithy.ShapeTypeMap:
		out := map[string]any{}
		for _, entry := range n.children {
			var key string
			var value any
			for _, kv := range entry.children {
				switch kv.name {
				case xmlName(s.MapKey(), "key"):
					key = kv.text
				case xmlName(s.MapValue(), "value"):
					value = xmlValue(kv, s.MapValue())
				}
			}
			out[key] = value
		}
		return out
	default:
		return n.text
	}
}

// xmlStruct reads the children of n as members of s. Flattened lists repeat their member's
// element. A list member whose element holds only text is read as one flattened item too:
// schemas synthesized for members newer than the model cannot say that a list is flattened. An
// empty element (<Items/>, what the SDK sends for an empty list) is an empty list.
func xmlStruct(n *node, s *smithy.Schema) any {
	byElement := map[string]string{}
	for name, m := range s.Members() {
		if !bound(m) {
			byElement[xmlName(m, name)] = name
		}
	}
	out := map[string]any{}
	for _, child := range n.children {
		name, ok := byElement[child.name]
		if !ok {
			continue
		}
		m := s.Member(name)
		isList := m.Type() == smithy.ShapeTypeList || m.Type() == smithy.ShapeTypeSet
		if isList && !flattened(m) && len(child.children) == 0 && strings.TrimSpace(child.text) == "" {
			if _, seen := out[name]; !seen {
				out[name] = []any{}
			}
			continue
		}
		if isList && (flattened(m) || len(child.children) == 0) {
			list, _ := out[name].([]any)
			out[name] = append(list, xmlValue(child, m.ListMember()))
			continue
		}
		out[name] = xmlValue(child, m)
	}
	return out
}
