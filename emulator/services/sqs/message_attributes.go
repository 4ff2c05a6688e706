package sqs

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxMessageAttributes is how many message attributes a message may carry (Amazon SQS Developer
// Guide, Amazon SQS message attributes).
const maxMessageAttributes = 10

// attributeName is the syntax of a message attribute name: letters, digits, underscores,
// hyphens and periods, at most 256 characters.
var attributeName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,256}$`)

// checkMessageAttributes validates a message's attributes as AWS does: at most 10, names of
// the allowed characters that do not start with "AWS." or "Amazon." (in any case), start or end
// with a period or hold two in a row, and a data type of String, Number or Binary (each with an
// optional ".custom" suffix) with the value of its type.
func checkMessageAttributes(attrs map[string]types.MessageAttributeValue) error {
	if len(attrs) > maxMessageAttributes {
		return core.Errorf("InvalidParameterValue", "Number of message attributes [%d] exceeds the allowed maximum [%d].", len(attrs), maxMessageAttributes)
	}
	for name, v := range attrs {
		lower := strings.ToLower(name)
		if !attributeName.MatchString(name) || strings.HasPrefix(lower, "aws.") || strings.HasPrefix(lower, "amazon.") ||
			strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
			return core.Errorf("InvalidParameterValue", "Message (user) attribute name '%s' is invalid.", name)
		}
		dataType := aws.ToString(v.DataType)
		switch base, _, _ := strings.Cut(dataType, "."); base {
		case "String", "Number":
			if aws.ToString(v.StringValue) == "" {
				return core.Errorf("InvalidParameterValue", "Message (user) attribute '%s' must contain a non-empty value of type '%s'.", name, base)
			}
		case "Binary":
			if len(v.BinaryValue) == 0 {
				return core.Errorf("InvalidParameterValue", "Message (user) attribute '%s' must contain a non-empty value of type 'Binary'.", name)
			}
		default:
			return core.Errorf("InvalidParameterValue", "The type of message (user) attribute '%s' is invalid. You must use only the following supported type prefixes: Binary, Number, String.", name)
		}
	}
	return nil
}

// attributesSize is the size message attributes count for towards MaximumMessageSize: each
// name, data type and value.
func attributesSize(attrs map[string]types.MessageAttributeValue) int {
	n := 0
	for name, v := range attrs {
		n += len(name) + len(aws.ToString(v.DataType)) + len(aws.ToString(v.StringValue)) + len(v.BinaryValue)
	}
	return n
}

// attributesMD5 is the MD5 digest SQS returns as MD5OfMessageAttributes, computed as the Amazon
// SQS Developer Guide documents: for each attribute in name order, its name, its data type,
// a transport byte (1 for String and Number, 2 for Binary) and its value, each but the byte
// preceded by its length as a 4-byte big-endian integer. It is "" without attributes.
func attributesMD5(attrs map[string]types.MessageAttributeValue) string {
	if len(attrs) == 0 {
		return ""
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	h := md5.New()
	field := func(b []byte) {
		_ = binary.Write(h, binary.BigEndian, uint32(len(b)))
		h.Write(b)
	}
	for _, name := range names {
		v := attrs[name]
		field([]byte(name))
		field([]byte(aws.ToString(v.DataType)))
		if strings.HasPrefix(aws.ToString(v.DataType), "Binary") {
			h.Write([]byte{2})
			field(v.BinaryValue)
		} else {
			h.Write([]byte{1})
			field([]byte(aws.ToString(v.StringValue)))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// selectAttributes returns the attributes ReceiveMessage asks for with MessageAttributeNames:
// each name, "All" or ".*" for every attribute, or "prefix.*" for those under a prefix.
func selectAttributes(attrs map[string]types.MessageAttributeValue, names []string) map[string]types.MessageAttributeValue {
	out := map[string]types.MessageAttributeValue{}
	for _, want := range names {
		for name, v := range attrs {
			prefix, wildcard := strings.CutSuffix(want, "*")
			switch {
			case want == "All" || want == ".*":
			case wildcard && strings.HasSuffix(prefix, ".") && strings.HasPrefix(name, prefix):
			case name == want:
			default:
				continue
			}
			out[name] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// systemAttributes returns the message system attributes ReceiveMessage asks for with
// MessageSystemAttributeNames or the older AttributeNames ("All" for every one). The caller
// holds b.mu.
func systemAttributes(m *message, names []string) map[string]string {
	all := map[string]string{
		"SenderId":                         m.sender,
		"SentTimestamp":                    strconv.FormatInt(m.sent.UnixMilli(), 10),
		"ApproximateReceiveCount":          strconv.Itoa(m.receives),
		"ApproximateFirstReceiveTimestamp": strconv.FormatInt(m.firstReceive.UnixMilli(), 10),
	}
	for k, v := range map[string]string{"MessageGroupId": m.groupID, "MessageDeduplicationId": m.dedupID,
		"SequenceNumber": m.sequence, "AWSTraceHeader": m.traceHeader, "DeadLetterQueueSourceArn": m.deadLetterSource} {
		if v != "" {
			all[k] = v
		}
	}
	out := map[string]string{}
	for _, name := range names {
		if name == "All" {
			return all
		}
		if v, ok := all[name]; ok {
			out[name] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// optional returns s as an optional string: nil when it is empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}
