// Package wire encodes and decodes AWS protocol payloads on the server side, driven by the
// schemas that aws-sdk-go-v2 generates from the AWS API models, so that every wire name comes
// from the models rather than being typed by hand.
package wire

import (
	"math/big"
	"net/http"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/document"
	"github.com/aws/smithy-go/traits"
)

// SchemaOf returns the schema of an SDK input or output struct, read from the first WriteStruct
// call of its Serialize method.
func SchemaOf(v smithy.Serializable) *smithy.Schema {
	var c schemaCatcher
	v.Serialize(&c)
	return c.schema
}

// schemaCatcher is a ShapeSerializer that only remembers the first struct schema.
type schemaCatcher struct{ schema *smithy.Schema }

func (c *schemaCatcher) WriteStruct(s *smithy.Schema) {
	if c.schema == nil {
		c.schema = s
	}
}
func (c *schemaCatcher) Bytes() []byte                                { return nil }
func (c *schemaCatcher) WriteInt8(*smithy.Schema, int8)               {}
func (c *schemaCatcher) WriteInt16(*smithy.Schema, int16)             {}
func (c *schemaCatcher) WriteInt32(*smithy.Schema, int32)             {}
func (c *schemaCatcher) WriteInt64(*smithy.Schema, int64)             {}
func (c *schemaCatcher) WriteFloat32(*smithy.Schema, float32)         {}
func (c *schemaCatcher) WriteFloat64(*smithy.Schema, float64)         {}
func (c *schemaCatcher) WriteBool(*smithy.Schema, bool)               {}
func (c *schemaCatcher) WriteString(*smithy.Schema, string)           {}
func (c *schemaCatcher) WriteBigInt(*smithy.Schema, *big.Int)         {}
func (c *schemaCatcher) WriteBigFloat(*smithy.Schema, *big.Float)     {}
func (c *schemaCatcher) WriteBlob(*smithy.Schema, []byte)             {}
func (c *schemaCatcher) WriteTime(*smithy.Schema, time.Time)          {}
func (c *schemaCatcher) WriteUnion(*smithy.Schema, *smithy.Schema)    {}
func (c *schemaCatcher) CloseUnion()                                  {}
func (c *schemaCatcher) WriteDocument(*smithy.Schema, document.Value) {}
func (c *schemaCatcher) WriteNil(*smithy.Schema)                      {}
func (c *schemaCatcher) CloseStruct()                                 {}
func (c *schemaCatcher) WriteList(*smithy.Schema)                     {}
func (c *schemaCatcher) CloseList()                                   {}
func (c *schemaCatcher) WriteMap(*smithy.Schema)                      {}
func (c *schemaCatcher) WriteKey(*smithy.Schema, string)              {}
func (c *schemaCatcher) CloseMap()                                    {}

// xmlName returns the name a member is written under in XML and query protocols: its direct
// xmlName trait, else fallback.
func xmlName(s *smithy.Schema, fallback string) string {
	if t, ok := smithy.SchemaDirectTrait[*traits.XMLName](s); ok && t.Name != "" {
		return t.Name
	}
	return fallback
}

// flattened reports whether a list or map member is XML-flattened.
func flattened(s *smithy.Schema) bool {
	_, ok := smithy.SchemaTrait[*traits.XMLFlattened](s)
	return ok
}

// timestampFormat returns the member's timestampFormat trait, or def.
func timestampFormat(s *smithy.Schema, def string) string {
	if t, ok := smithy.SchemaTrait[*traits.TimestampFormat](s); ok && t.Format != "" {
		return t.Format
	}
	return def
}

// formatTime formats t in a Smithy timestamp format.
func formatTime(t time.Time, format string) string {
	switch format {
	case "date-time":
		return t.UTC().Format("2006-01-02T15:04:05.000Z")
	case "http-date":
		return t.UTC().Format(http.TimeFormat) // "GMT", as HTTP requires; time.RFC1123 says "UTC".
	default:
		return epochSeconds(t)
	}
}
