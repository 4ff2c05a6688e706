package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"strconv"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/document"
)

// JSONEncoder is a ShapeSerializer that writes the JSON body of awsJson responses: members by
// their model names, timestamps as epoch seconds, blobs as base64.
type JSONEncoder struct {
	// Keys names struct members in the document; nil means by member name (awsJson ignores
	// jsonName).
	Keys func(m *smithy.Schema, name string) string

	buf   bytes.Buffer
	stack []jsonFrame
}

type jsonFrame struct {
	kind  byte // 's' struct, 'l' list, 'm' map
	count int
	key   bool // a map key was written and its value is next
}

// Bytes returns the encoded JSON.
func (e *JSONEncoder) Bytes() []byte { return e.buf.Bytes() }

// prefix writes the separator and, inside a struct, the member name before a value.
func (e *JSONEncoder) prefix(s *smithy.Schema) {
	if len(e.stack) == 0 {
		return
	}
	f := &e.stack[len(e.stack)-1]
	switch f.kind {
	case 's':
		if f.count > 0 {
			e.buf.WriteByte(',')
		}
		f.count++
		key := s.MemberName()
		if e.Keys != nil {
			key = e.Keys(s, key)
		}
		e.writeString(key)
		e.buf.WriteByte(':')
	case 'l':
		if f.count > 0 {
			e.buf.WriteByte(',')
		}
		f.count++
	case 'm':
		f.key = false
	}
}

func (e *JSONEncoder) writeString(v string) {
	b, _ := json.Marshal(v)
	e.buf.Write(b)
}

func (e *JSONEncoder) open(s *smithy.Schema, kind byte, c byte) {
	e.prefix(s)
	e.buf.WriteByte(c)
	e.stack = append(e.stack, jsonFrame{kind: kind})
}

func (e *JSONEncoder) close(c byte) {
	e.stack = e.stack[:len(e.stack)-1]
	e.buf.WriteByte(c)
}

func (e *JSONEncoder) WriteInt8(s *smithy.Schema, v int8)   { e.WriteInt64(s, int64(v)) }
func (e *JSONEncoder) WriteInt16(s *smithy.Schema, v int16) { e.WriteInt64(s, int64(v)) }
func (e *JSONEncoder) WriteInt32(s *smithy.Schema, v int32) { e.WriteInt64(s, int64(v)) }
func (e *JSONEncoder) WriteInt64(s *smithy.Schema, v int64) {
	e.prefix(s)
	e.buf.WriteString(strconv.FormatInt(v, 10))
}
func (e *JSONEncoder) WriteFloat32(s *smithy.Schema, v float32) { e.WriteFloat64(s, float64(v)) }
func (e *JSONEncoder) WriteFloat64(s *smithy.Schema, v float64) {
	e.prefix(s)
	e.buf.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
}
func (e *JSONEncoder) WriteBool(s *smithy.Schema, v bool) {
	e.prefix(s)
	e.buf.WriteString(strconv.FormatBool(v))
}
func (e *JSONEncoder) WriteString(s *smithy.Schema, v string) {
	e.prefix(s)
	e.writeString(v)
}
func (e *JSONEncoder) WriteBigInt(s *smithy.Schema, v *big.Int) {
	e.prefix(s)
	e.buf.WriteString(v.String())
}
func (e *JSONEncoder) WriteBigFloat(s *smithy.Schema, v *big.Float) {
	e.prefix(s)
	e.buf.WriteString(v.Text('g', -1))
}
func (e *JSONEncoder) WriteBlob(s *smithy.Schema, v []byte) {
	e.prefix(s)
	e.writeString(base64.StdEncoding.EncodeToString(v))
}
func (e *JSONEncoder) WriteTime(s *smithy.Schema, v time.Time) {
	e.prefix(s)
	switch f := timestampFormat(s, "epoch-seconds"); f {
	case "epoch-seconds":
		e.buf.WriteString(epochSeconds(v))
	default:
		e.writeString(formatTime(v, f))
	}
}
func (e *JSONEncoder) WriteUnion(s, _ *smithy.Schema) { e.open(s, 's', '{') }
func (e *JSONEncoder) CloseUnion()                    { e.close('}') }
func (e *JSONEncoder) WriteDocument(s *smithy.Schema, v document.Value) {
	e.prefix(s)
	b, err := json.Marshal(documentJSON(v))
	if err != nil {
		b = []byte("null")
	}
	e.buf.Write(b)
}
func (e *JSONEncoder) WriteNil(s *smithy.Schema) {
	e.prefix(s)
	e.buf.WriteString("null")
}
func (e *JSONEncoder) WriteStruct(s *smithy.Schema) { e.open(s, 's', '{') }
func (e *JSONEncoder) CloseStruct()                 { e.close('}') }
func (e *JSONEncoder) WriteList(s *smithy.Schema)   { e.open(s, 'l', '[') }
func (e *JSONEncoder) CloseList()                   { e.close(']') }
func (e *JSONEncoder) WriteMap(s *smithy.Schema)    { e.open(s, 'm', '{') }
func (e *JSONEncoder) WriteKey(_ *smithy.Schema, key string) {
	f := &e.stack[len(e.stack)-1]
	if f.count > 0 {
		e.buf.WriteByte(',')
	}
	f.count++
	e.writeString(key)
	e.buf.WriteByte(':')
	f.key = true
}
func (e *JSONEncoder) CloseMap() { e.close('}') }

// epochSeconds formats t as seconds since the epoch with millisecond precision.
func epochSeconds(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', -1, 64)
}

// documentJSON returns a document's value as encoding/json writes it: numbers as they were
// read, blobs in base64, timestamps in epoch seconds, structures as their members, and the
// SDK's opaque documents as they marshal themselves.
func documentJSON(v document.Value) any {
	switch d := v.(type) {
	case document.Boolean:
		return bool(d)
	case document.String:
		return string(d)
	case document.Number:
		return json.Number(d)
	case document.Blob:
		return base64.StdEncoding.EncodeToString(d)
	case document.Timestamp:
		return json.Number(epochSeconds(time.Time(d)))
	case document.List:
		out := make([]any, len(d))
		for i, item := range d {
			out[i] = documentJSON(item)
		}
		return out
	case document.Map:
		return documentMembers(d)
	case document.Structure:
		return documentMembers(d.Members)
	case *document.Opaque:
		return documentJSON(*d)
	case document.Opaque:
		// The SDK wraps its service's document.Interface values, which marshal themselves.
		if m, ok := d.Value.(interface{ MarshalSmithyDocument() ([]byte, error) }); ok {
			if b, err := m.MarshalSmithyDocument(); err == nil {
				return json.RawMessage(b)
			}
			return nil
		}
		return d.Value
	}
	return nil
}

// documentMembers returns the members of a document map or structure as encoding/json writes
// them.
func documentMembers(m map[string]document.Value) map[string]any {
	out := make(map[string]any, len(m))
	for k, item := range m {
		out[k] = documentJSON(item)
	}
	return out
}
