// Package models holds the AWS API models (from aws-sdk-go v1, minified by ./gen) of the
// emulated services whose aws-sdk-go-v2 modules have no schemas of their own, and turns their
// shapes into smithy schemas, so that the wire codecs take every wire name from the model.
package models

//go:generate go run ./gen sts sns s3 ec2 lambda rds elasticloadbalancingv2 eks iam secretsmanager kms acm apigateway apigatewayv2 cloudfront elasticache route53

import (
	"embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"
)

//go:embed apis/*.json
var apis embed.FS

// Model is one service's API model.
type Model struct {
	name       string
	Metadata   map[string]any       `json:"metadata"`
	Operations map[string]operation `json:"operations"`
	Shapes     map[string]shape     `json:"shapes"`

	mu      sync.Mutex
	schemas map[string]*smithy.Schema

	routesOnce sync.Once
	routes     []Route
}

type operation struct {
	HTTP   *HTTPBinding `json:"http"`
	Input  *ref         `json:"input"`
	Output *ref         `json:"output"`
}

// HTTPBinding is an operation's HTTP method, URI template and success status, for REST
// protocols.
type HTTPBinding struct {
	Method       string `json:"method"`
	RequestURI   string `json:"requestUri"`
	ResponseCode int    `json:"responseCode"`
}

type ref struct {
	Shape           string `json:"shape"`
	LocationName    string `json:"locationName"`
	Location        string `json:"location"`
	QueryName       string `json:"queryName"`
	Flattened       bool   `json:"flattened"`
	XMLAttribute    bool   `json:"xmlAttribute"`
	TimestampFormat string `json:"timestampFormat"`
	XMLNamespace    *struct {
		URI string `json:"uri"`
	} `json:"xmlNamespace"`
}

type shape struct {
	Type            string         `json:"type"`
	Members         map[string]ref `json:"members"`
	Member          *ref           `json:"member"`
	Key             *ref           `json:"key"`
	Value           *ref           `json:"value"`
	Flattened       bool           `json:"flattened"`
	TimestampFormat string         `json:"timestampFormat"`
	Payload         string         `json:"payload"`
	LocationName    string         `json:"locationName"`
	Location        string         `json:"location"`
	Required        []string       `json:"required"`
}

// loaded holds the models Load has read, by service. A model never changes once loaded (its
// schemas are built on first use under its own lock), so every emulator of a process shares
// one: a test suite that starts hundreds of emulators decodes EC2's model once, not hundreds of
// times, and holds one copy of it.
var loaded struct {
	sync.Mutex
	models map[string]*Model
}

// Load returns the embedded model of service (for example "sns"), with the operations and
// shapes of apis/<service>.supplement.json added when that file exists: operations AWS added
// after aws-sdk-go v1.55.8 (S3's GetBucketAbac), written by hand in the same format from the
// API reference and the aws-sdk-go-v2 client, which `go generate` leaves alone. The model is
// read once per process and shared.
func Load(service string) (*Model, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if m, ok := loaded.models[service]; ok {
		return m, nil
	}
	m, err := read(service)
	if err != nil {
		return nil, err
	}
	if loaded.models == nil {
		loaded.models = map[string]*Model{}
	}
	loaded.models[service] = m
	return m, nil
}

// read decodes the embedded model of service and its supplement.
func read(service string) (*Model, error) {
	b, err := apis.ReadFile("apis/" + service + ".json")
	if err != nil {
		return nil, fmt.Errorf("no embedded model for %s: %w", service, err)
	}
	m, err := Parse(service, b)
	if err != nil {
		return nil, err
	}
	extra, err := apis.ReadFile("apis/" + service + ".supplement.json")
	if err != nil {
		return m, nil
	}
	sup, err := Parse(service, extra)
	if err != nil {
		return nil, fmt.Errorf("the %s supplement: %w", service, err)
	}
	for name, op := range sup.Operations {
		m.Operations[name] = op
	}
	for name, sh := range sup.Shapes {
		m.Shapes[name] = sh
	}
	return m, nil
}

// Parse reads a model in the api-2.json format; name namespaces its shapes.
func Parse(name string, b []byte) (*Model, error) {
	m := &Model{name: name, schemas: map[string]*smithy.Schema{}}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("decode the %s model: %w", name, err)
	}
	return m, nil
}

// MustLoad is Load for the services compiled into the emulator, whose models are embedded at
// build time; a missing model is a build defect.
func MustLoad(service string) *Model {
	m, err := Load(service)
	if err != nil {
		panic(err)
	}
	return m
}

// InputSchema returns the schema of an operation's input, or nil when the model lacks the
// operation or it takes no input.
func (m *Model) InputSchema(op string) *smithy.Schema {
	o, ok := m.Operations[op]
	if !ok || o.Input == nil {
		return nil
	}
	return m.Schema(o.Input.Shape)
}

// OutputSchema returns the schema of an operation's output, or nil.
func (m *Model) OutputSchema(op string) *smithy.Schema {
	o, ok := m.Operations[op]
	if !ok || o.Output == nil {
		return nil
	}
	return m.Schema(o.Output.Shape)
}

// HTTP returns an operation's HTTP binding, or nil.
func (m *Model) HTTP(op string) *HTTPBinding {
	return m.Operations[op].HTTP
}

// ElementName returns the XML element name a structure shape is written under when it is a
// whole document: its locationName, or its name.
func (m *Model) ElementName(shape string) string {
	if n := m.Shapes[shape].LocationName; n != "" {
		return n
	}
	return shape
}

// RequiredBindings returns the header names and query parameters an operation's input requires,
// which REST routing uses to tell apart operations that share a path (PutObject and
// CopyObject).
func (m *Model) RequiredBindings(op string) (headers, query []string) {
	in := m.Operations[op].Input
	if in == nil {
		return nil, nil
	}
	sh := m.Shapes[in.Shape]
	for _, name := range sh.Required {
		r := sh.Members[name]
		switch r.Location {
		case "header":
			headers = append(headers, r.LocationName)
		case "querystring":
			query = append(query, r.LocationName)
		}
	}
	return headers, query
}

// LabelMembers maps the URI label names of an operation's route to the input members they
// fill ({ARN} fills Resource in Lambda's ListTags).
func (m *Model) LabelMembers(op string) map[string]string {
	in := m.Operations[op].Input
	if in == nil {
		return nil
	}
	out := map[string]string{}
	for name, r := range m.Shapes[in.Shape].Members {
		if r.Location == "uri" {
			label := r.LocationName
			if label == "" {
				label = name
			}
			out[label] = name
		}
	}
	return out
}

// OutputShape returns the name of an operation's output shape, or "".
func (m *Model) OutputShape(op string) string {
	if o := m.Operations[op].Output; o != nil {
		return o.Shape
	}
	return ""
}

// Schema returns the schema of a named shape.
func (m *Model) Schema(name string) *smithy.Schema {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.build(name)
}

var shapeTypes = map[string]smithy.ShapeType{
	"structure": smithy.ShapeTypeStructure, "list": smithy.ShapeTypeList, "map": smithy.ShapeTypeMap,
	"string": smithy.ShapeTypeString, "boolean": smithy.ShapeTypeBoolean, "integer": smithy.ShapeTypeInteger,
	"long": smithy.ShapeTypeLong, "float": smithy.ShapeTypeFloat, "double": smithy.ShapeTypeDouble,
	"timestamp": smithy.ShapeTypeTimestamp, "blob": smithy.ShapeTypeBlob,
}

// build returns the schema of a shape, building it and its members on first use. The caller
// holds m.mu. A shape is cached before its members are added, so recursive shapes work.
func (m *Model) build(name string) *smithy.Schema {
	if s, ok := m.schemas[name]; ok {
		return s
	}
	sh := m.Shapes[name]
	var ts []smithy.Trait
	if sh.Flattened {
		ts = append(ts, &traits.XMLFlattened{})
	}
	if sh.TimestampFormat != "" {
		ts = append(ts, &traits.TimestampFormat{Format: smithyTimestampFormat(sh.TimestampFormat)})
	}
	typ, ok := shapeTypes[sh.Type]
	if !ok {
		typ = smithy.ShapeTypeDocument
	}
	s := smithy.NewSchema(smithy.ShapeID{Namespace: m.name, Name: name}, typ, len(sh.Members), ts...)
	m.schemas[name] = s
	switch sh.Type {
	case "structure":
		for member, r := range sh.Members {
			if target := m.Shapes[r.Shape]; r.Location == "" && target.Location != "" {
				// Some models bind the target shape rather than the member.
				r.Location, r.LocationName = target.Location, target.LocationName
			}
			ts := refTraits(r)
			if member == sh.Payload {
				ts = append(ts, &traits.HTTPPayload{})
			}
			s.AddMember(member, m.build(r.Shape), ts...)
		}
	case "list":
		if sh.Member != nil {
			s.AddMember("member", m.build(sh.Member.Shape), refTraits(*sh.Member)...)
		}
	case "map":
		if sh.Key != nil && sh.Value != nil {
			s.AddMember("key", m.build(sh.Key.Shape), refTraits(*sh.Key)...)
			s.AddMember("value", m.build(sh.Value.Shape), refTraits(*sh.Value)...)
		}
	}
	return s
}

// refTraits returns the wire traits a member reference declares: its HTTP binding, its XML
// name, flattening, namespace and timestamp format.
func refTraits(r ref) []smithy.Trait {
	var ts []smithy.Trait
	switch r.Location {
	case "header":
		ts = append(ts, &traits.HTTPHeader{Name: r.LocationName})
	case "headers":
		ts = append(ts, &traits.HTTPPrefixHeaders{Prefix: r.LocationName})
	case "querystring":
		if r.LocationName == "" {
			ts = append(ts, &traits.HTTPQueryParams{})
		} else {
			ts = append(ts, &traits.HTTPQuery{Name: r.LocationName})
		}
	case "uri":
		ts = append(ts, &traits.HTTPLabel{})
	case "statusCode":
		ts = append(ts, &traits.HTTPResponseCode{})
	}
	if r.LocationName != "" {
		ts = append(ts, &traits.XMLName{Name: r.LocationName})
	}
	if r.QueryName != "" {
		ts = append(ts, &traits.EC2QueryName{Name: r.QueryName})
	}
	if r.XMLNamespace != nil {
		ts = append(ts, &traits.XMLNamespace{URI: r.XMLNamespace.URI})
	}
	if r.Flattened {
		ts = append(ts, &traits.XMLFlattened{})
	}
	if r.XMLAttribute {
		ts = append(ts, &traits.XMLAttribute{})
	}
	if r.TimestampFormat != "" {
		ts = append(ts, &traits.TimestampFormat{Format: smithyTimestampFormat(r.TimestampFormat)})
	}
	return ts
}

// smithyTimestampFormat names a timestamp format of the api-2.json models ("rfc822") as Smithy
// does ("http-date").
func smithyTimestampFormat(format string) string {
	switch format {
	case "rfc822":
		return "http-date"
	case "iso8601":
		return "date-time"
	case "unixTimestamp":
		return "epoch-seconds"
	}
	return format
}
