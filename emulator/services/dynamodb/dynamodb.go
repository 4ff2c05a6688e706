// Package dynamodb emulates the table management of Amazon DynamoDB over its JSON protocol:
// tables with key schemas, global and local secondary indexes, billing modes, provisioned
// throughput, TTL, point-in-time recovery, streams, encryption, table classes, deletion
// protection and tags, going through CREATING, UPDATING and DELETING on the simulation clock.
// Item operations are not emulated and get UnknownOperationException.
//
// Encryption with a KMS key (SSESpecification) is checked against the emulated KMS when it is
// given, as DynamoDB does (it creates a grant on the key): CreateTable and UpdateTable refuse a
// key that does not exist, is disabled or is pending deletion with a ValidationException whose
// message quotes KMS's exception, and a key that is no symmetric encryption key with an
// InternalServerError (HTTP 500), as observed on AWS; no table is created and an updated table
// is left as it was. SSEDescription reports the key by its key ARN (that of the AWS managed key
// aws/dynamodb when the specification names none). A key disabled after the table was created
// does not make the table inaccessible (AWS's INACCESSIBLE_ENCRYPTION_CREDENTIALS is not
// emulated).
package dynamodb

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// TransitionTime is how long a table (or index) stays CREATING, UPDATING or DELETING on the
// simulation clock by default.
const TransitionTime = 2 * time.Second

// Backend holds the tables of every account and region.
type Backend struct {
	clock  *core.Clock
	keys   core.Keys
	mu     sync.Mutex
	tables *core.Regions[map[string]*table] // by name
	tags   *core.Tags                       // the tables', by ARN
	seq    int
}

// New returns an empty DynamoDB backend on clock that checks tables' KMS keys against keys.
func New(clock *core.Clock, keys core.Keys) *Backend {
	return &Backend{clock: clock, keys: keys, tags: core.NewTags(tagRules),
		tables: core.NewRegions(func(core.Scope) map[string]*table { return map[string]*table{} })}
}

// Service describes DynamoDB to the router.
func (b *Backend) Service() *core.Service {
	s := core.JSONService("dynamodb", "DynamoDB", "DynamoDB_20120810")
	s.Protocol, s.CRC32 = core.ProtocolJSON10, true
	s.Throttle.Message = "Rate of requests exceeds the allowed throughput."
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

func validation(format string, args ...any) *core.APIError {
	return core.Errorf("ValidationException", format, args...)
}

func notFound(name string) *core.APIError {
	return core.Errorf("ResourceNotFoundException", "Requested resource not found: Table: %s not found", name)
}

var tableName = regexp.MustCompile(`^[a-zA-Z0-9_.-]{3,255}$`)

// withTable runs f, holding b.mu, on the live table that nameOrARN names, and returns f's answer
// or lookup's error.
func withTable[O any](b *Backend, call *core.Call, nameOrARN *string, f func(*table) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*table, error) { return b.lookup(call, aws.ToString(nameOrARN)) }, f)
}

// lookup returns a live table by name or ARN, settling its state first. The caller holds b.mu.
func (b *Backend) lookup(call *core.Call, nameOrARN string) (*table, error) {
	tables := b.tables.Of(call)
	for name, t := range tables {
		if name == nameOrARN || t.arn == nameOrARN {
			t.settle(call.Now)
			if t.gone(call.Now) {
				delete(tables, name)
				b.tags.Delete(t.arn)
				break
			}
			return t, nil
		}
	}
	return nil, notFound(nameOrARN)
}

func (b *Backend) createTable(call *core.Call, in *dynamodb.CreateTableInput) (*dynamodb.CreateTableOutput, error) {
	name := aws.ToString(in.TableName)
	if !tableName.MatchString(name) {
		return nil, validation("1 validation error detected: Value '%s' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+ and have length between 3 and 255", name)
	}
	t, err := newTable(call, in)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := b.lookup(call, name); err == nil {
		return nil, core.Errorf("ResourceInUseException", "Table already exists: %s", name)
	}
	if in.SSESpecification != nil {
		if t.sse, err = b.sseDescription(call, in.SSESpecification); err != nil {
			return nil, err
		}
	}
	tags, _ := core.TagMap(in.Tags, core.TagPair[types.Tag])
	if err := b.tags.Merge(tags, t.arn); err != nil {
		return nil, err
	}
	b.seq++
	t.id = fmt.Sprintf("%08x-0000-4000-8000-%012x", b.seq, b.seq)
	b.tables.Of(call)[name] = t
	return &dynamodb.CreateTableOutput{TableDescription: t.describe(call.Now)}, nil
}

func (b *Backend) describeTable(call *core.Call, in *dynamodb.DescribeTableInput) (*dynamodb.DescribeTableOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.TableName))
	if err != nil || !t.visible(call) {
		return nil, notFound(aws.ToString(in.TableName))
	}
	return &dynamodb.DescribeTableOutput{Table: t.describe(call.Now)}, nil
}

func (b *Backend) deleteTable(call *core.Call, in *dynamodb.DeleteTableInput) (*dynamodb.DeleteTableOutput, error) {
	return withTable(b, call, in.TableName, func(t *table) (*dynamodb.DeleteTableOutput, error) {
		if t.status != types.TableStatusActive {
			return nil, core.Errorf("ResourceInUseException", "Attempt to change a resource which is still in use: Table: %s is in %s state", t.name, t.status)
		}
		if t.deletionProtection {
			return nil, validation("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
		}
		t.status, t.until = types.TableStatusDeleting, call.Now.Add(call.Transition)
		return &dynamodb.DeleteTableOutput{TableDescription: t.describe(call.Now)}, nil
	})
}

func (b *Backend) listTables(call *core.Call, in *dynamodb.ListTablesInput) (*dynamodb.ListTablesOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var names []string
	for name := range b.tables.Of(call) {
		if _, err := b.lookup(call, name); err == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	limit := 100
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, validation("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value between 1 and 100", *in.Limit)
		}
		limit = int(*in.Limit)
	}
	start := sort.SearchStrings(names, aws.ToString(in.ExclusiveStartTableName))
	if start < len(names) && names[start] == aws.ToString(in.ExclusiveStartTableName) {
		start++
	}
	end := min(start+limit, len(names))
	out := &dynamodb.ListTablesOutput{TableNames: names[start:end]}
	if end < len(names) {
		out.LastEvaluatedTableName = aws.String(names[end-1])
	}
	return out, nil
}

func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]any{}
	now := b.clock.Now()
	for scope, tables := range b.tables.All() {
		for name, t := range tables {
			t.settle(now)
			out[scope.Account+"/"+scope.Region+"/"+name] = t.describe(now)
		}
	}
	return out
}

// StreamByARN reports whether streamARN (arn:aws:dynamodb:region:account:table/name/stream/
// label) is the current stream of an existing table whose stream is enabled, for the services
// that read streams (Lambda's event source mappings).
func (b *Backend) StreamByARN(streamARN string) bool {
	parts := strings.SplitN(streamARN, ":", 6)
	if len(parts) != 6 || parts[2] != "dynamodb" {
		return false
	}
	path := strings.Split(parts[5], "/")
	if len(path) != 4 || path[0] != "table" || path[2] != "stream" {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.tables.For(core.Scope{Account: parts[4], Region: parts[3]})[path[1]]
	return ok && t.stream != nil && t.streamLabel == path[3]
}
