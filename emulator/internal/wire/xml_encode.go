package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/document"
	"github.com/aws/smithy-go/traits"
)

// XMLEncoder is a ShapeSerializer that writes the members of an awsQuery result as XML:
// elements named by the model's member names or xmlName traits, wrapped lists
// (<member>) unless flattened, maps as <entry><key/><value/></entry>, timestamps in ISO 8601.
// The outermost struct writes no element of its own; the protocol wraps it in <XResult>.
type XMLEncoder struct {
	// EC2 names lists newer than the API model as ec2Query responses do: <fooSet><item/>.
	EC2   bool
	buf   bytes.Buffer
	stack []xmlFrame
}

type xmlFrame struct {
	kind      byte   // 's' struct, 'l' list, 'm' map
	element   string // element to close when the frame closes ("" for none)
	item      string // element name of list items or map values
	flat      bool   // list or map is flattened
	entry     string // element wrapping one map entry
	keyName   string // element name of map keys
	entryOpen bool
	attrAt    int  // struct: where in the buffer its start tag's attributes go (0 for none)
	xsi       bool // struct: its start tag declares the xsi prefix
}

// xsiNamespace is the namespace of the xsi prefix, which S3's xsi:type attributes use.
const xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

// attribute adds name="v" to the start tag of the innermost struct (members with the
// xmlAttribute trait, such as S3's Grantee xsi:type), declaring the xsi prefix as AWS does.
// It reports false when no struct's start tag is written.
func (e *XMLEncoder) attribute(s *smithy.Schema, v string) bool {
	if len(e.stack) == 0 {
		return false
	}
	f := &e.stack[len(e.stack)-1]
	if f.kind != 's' || f.attrAt == 0 {
		return false
	}
	var attr bytes.Buffer
	name := xmlName(s, s.MemberName())
	if strings.HasPrefix(name, "xsi:") && !f.xsi {
		attr.WriteString(` xmlns:xsi="` + xsiNamespace + `"`)
		f.xsi = true
	}
	attr.WriteString(" " + name + `="`)
	_ = xml.EscapeText(&attr, []byte(v))
	attr.WriteString(`"`)
	tail := bytes.Clone(e.buf.Bytes()[f.attrAt:])
	e.buf.Truncate(f.attrAt)
	e.buf.Write(attr.Bytes())
	e.buf.Write(tail)
	f.attrAt += attr.Len()
	return true
}

// Bytes returns the encoded XML.
func (e *XMLEncoder) Bytes() []byte { return e.buf.Bytes() }

// name returns the element name of the next value written with schema s.
func (e *XMLEncoder) name(s *smithy.Schema) string {
	if len(e.stack) == 0 {
		return ""
	}
	f := e.stack[len(e.stack)-1]
	switch f.kind {
	case 'l', 'm':
		return f.item
	default:
		return xmlName(s, s.MemberName())
	}
}

func (e *XMLEncoder) text(s *smithy.Schema, v string) {
	if _, ok := smithy.SchemaDirectTrait[*traits.XMLAttribute](s); ok && e.attribute(s, v) {
		return
	}
	n := e.name(s)
	e.buf.WriteString("<" + n + ">")
	_ = xml.EscapeText(&e.buf, []byte(v))
	e.buf.WriteString("</" + n + ">")
	e.valueDone()
}

// valueDone closes a map entry once its value is written.
func (e *XMLEncoder) valueDone() {
	if len(e.stack) == 0 {
		return
	}
	f := &e.stack[len(e.stack)-1]
	if f.kind == 'm' && f.entryOpen {
		e.buf.WriteString("</" + f.entry + ">")
		f.entryOpen = false
	}
}

func (e *XMLEncoder) WriteInt8(s *smithy.Schema, v int8) { e.text(s, strconv.FormatInt(int64(v), 10)) }
func (e *XMLEncoder) WriteInt16(s *smithy.Schema, v int16) {
	e.text(s, strconv.FormatInt(int64(v), 10))
}
func (e *XMLEncoder) WriteInt32(s *smithy.Schema, v int32) {
	e.text(s, strconv.FormatInt(int64(v), 10))
}
func (e *XMLEncoder) WriteInt64(s *smithy.Schema, v int64) { e.text(s, strconv.FormatInt(v, 10)) }
func (e *XMLEncoder) WriteFloat32(s *smithy.Schema, v float32) {
	e.text(s, strconv.FormatFloat(float64(v), 'f', -1, 32))
}
func (e *XMLEncoder) WriteFloat64(s *smithy.Schema, v float64) {
	e.text(s, strconv.FormatFloat(v, 'f', -1, 64))
}
func (e *XMLEncoder) WriteBool(s *smithy.Schema, v bool)           { e.text(s, strconv.FormatBool(v)) }
func (e *XMLEncoder) WriteString(s *smithy.Schema, v string)       { e.text(s, v) }
func (e *XMLEncoder) WriteBigInt(s *smithy.Schema, v *big.Int)     { e.text(s, v.String()) }
func (e *XMLEncoder) WriteBigFloat(s *smithy.Schema, v *big.Float) { e.text(s, v.Text('g', -1)) }
func (e *XMLEncoder) WriteBlob(s *smithy.Schema, v []byte) {
	e.text(s, base64.StdEncoding.EncodeToString(v))
}
func (e *XMLEncoder) WriteTime(s *smithy.Schema, v time.Time) {
	e.text(s, formatTime(v, timestampFormat(s, "date-time")))
}
func (e *XMLEncoder) WriteDocument(*smithy.Schema, document.Value) {}
func (e *XMLEncoder) WriteNil(*smithy.Schema)                      {}
func (e *XMLEncoder) WriteUnion(s, _ *smithy.Schema)               { e.WriteStruct(s) }
func (e *XMLEncoder) CloseUnion()                                  { e.CloseStruct() }

func (e *XMLEncoder) WriteStruct(s *smithy.Schema) {
	f := xmlFrame{kind: 's'}
	if len(e.stack) > 0 {
		f.element = e.name(s)
		e.buf.WriteString("<" + f.element)
		f.attrAt = e.buf.Len()
		e.buf.WriteString(">")
	}
	e.stack = append(e.stack, f)
}

func (e *XMLEncoder) CloseStruct() { e.pop() }

func (e *XMLEncoder) WriteList(s *smithy.Schema) {
	name := e.name(s)
	f := xmlFrame{kind: 'l', flat: flattened(s)}
	if e.EC2 && s.TargetID().Namespace == synthesizedNamespace && name == s.MemberName() && name != "" {
		// A member newer than the model: EC2 sends RevokedSecurityGroupRules as
		// <revokedSecurityGroupRuleSet><item>.
		set := strings.ToLower(name[:1]) + name[1:]
		if !strings.HasSuffix(set, "Set") {
			set = singular(set) + "Set"
		}
		f.element, f.item = set, "item"
		e.buf.WriteString("<" + set + ">")
		e.stack = append(e.stack, f)
		return
	}
	if f.flat {
		// Flattened items take the name of the list's member when it has one.
		f.item = xmlName(s.ListMember(), name)
	} else {
		f.element = name
		f.item = xmlName(s.ListMember(), "member")
		e.buf.WriteString("<" + name + ">")
	}
	e.stack = append(e.stack, f)
}

func (e *XMLEncoder) CloseList() { e.pop() }

func (e *XMLEncoder) WriteMap(s *smithy.Schema) {
	name := e.name(s)
	f := xmlFrame{kind: 'm', flat: flattened(s), keyName: xmlName(s.MapKey(), "key"), item: xmlName(s.MapValue(), "value")}
	if f.flat {
		f.entry = name
	} else {
		f.element = name
		f.entry = "entry"
		e.buf.WriteString("<" + name + ">")
	}
	e.stack = append(e.stack, f)
}

func (e *XMLEncoder) WriteKey(_ *smithy.Schema, key string) {
	f := &e.stack[len(e.stack)-1]
	e.buf.WriteString("<" + f.entry + "><" + f.keyName + ">")
	_ = xml.EscapeText(&e.buf, []byte(key))
	e.buf.WriteString("</" + f.keyName + ">")
	f.entryOpen = true
}

func (e *XMLEncoder) CloseMap() { e.pop() }

func (e *XMLEncoder) pop() {
	f := e.stack[len(e.stack)-1]
	e.stack = e.stack[:len(e.stack)-1]
	if f.element != "" {
		e.buf.WriteString("</" + f.element + ">")
	}
	e.valueDone()
}
