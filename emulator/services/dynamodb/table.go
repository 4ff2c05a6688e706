package dynamodb

import (
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// table is one DynamoDB table.
type table struct {
	name, arn, id      string
	status             types.TableStatus
	until              time.Time // when the current transition ends
	created            time.Time
	readableAt         time.Time
	keySchema          []types.KeySchemaElement
	attributes         []types.AttributeDefinition
	billing            types.BillingMode
	switched           *time.Time // when the billing mode last changed
	read, write        int64
	gsis               []*index
	lsis               []types.LocalSecondaryIndex
	stream             *types.StreamSpecification
	streamLabel        string
	sse                *types.SSEDescription
	class              types.TableClass
	deletionProtection bool
	ttl                types.TimeToLiveDescription
	pitr               bool
	pitrDays           int32
}

// index is one global secondary index.
type index struct {
	name        string
	keySchema   []types.KeySchemaElement
	projection  *types.Projection
	read, write int64
	status      types.IndexStatus
	until       time.Time
}

// settle finishes transitions whose time has come.
func (t *table) settle(now time.Time) {
	if t.status != types.TableStatusDeleting && !now.Before(t.until) {
		t.status = types.TableStatusActive
	}
	kept := t.gsis[:0]
	for _, g := range t.gsis {
		if now.Before(g.until) {
			kept = append(kept, g)
			continue
		}
		switch g.status {
		case types.IndexStatusDeleting:
			continue
		case types.IndexStatusCreating, types.IndexStatusUpdating:
			g.status = types.IndexStatusActive
		}
		kept = append(kept, g)
	}
	t.gsis = kept
}

// gone reports whether a deleted table has finished deleting.
func (t *table) gone(now time.Time) bool {
	return t.status == types.TableStatusDeleting && !now.Before(t.until)
}

// visible reports whether reads see the table yet (eventual consistency fault).
func (t *table) visible(call *core.Call) bool { return !call.Now.Before(t.readableAt) }

func newTable(call *core.Call, in *dynamodb.CreateTableInput) (*table, error) {
	name := aws.ToString(in.TableName)
	t := &table{
		name:       name,
		arn:        call.Scope().ARN("dynamodb", "table/"+name),
		status:     types.TableStatusCreating,
		until:      call.Now.Add(call.Transition),
		created:    call.Now,
		readableAt: call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay)),
		keySchema:  in.KeySchema,
		attributes: in.AttributeDefinitions,
		billing:    in.BillingMode,
		class:      in.TableClass,
		ttl:        types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusDisabled},
	}
	if t.billing == "" {
		t.billing = types.BillingModeProvisioned
	}
	if t.class == "" {
		t.class = types.TableClassStandard
	}
	if in.DeletionProtectionEnabled != nil {
		t.deletionProtection = *in.DeletionProtectionEnabled
	}
	if err := checkKeySchema(in.KeySchema, "table"); err != nil {
		return nil, err
	}
	read, write, err := throughput(t.billing, in.ProvisionedThroughput, "table")
	if err != nil {
		return nil, err
	}
	t.read, t.write = read, write
	used := keyAttributes(in.KeySchema)
	if len(in.GlobalSecondaryIndexes) > 20 {
		return nil, validation("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20")
	}
	for _, g := range in.GlobalSecondaryIndexes {
		if err := checkIndex(aws.ToString(g.IndexName), g.KeySchema, g.Projection); err != nil {
			return nil, err
		}
		r, w, err := throughput(t.billing, g.ProvisionedThroughput, "index "+aws.ToString(g.IndexName))
		if err != nil {
			return nil, err
		}
		t.gsis = append(t.gsis, &index{name: aws.ToString(g.IndexName), keySchema: g.KeySchema, projection: g.Projection,
			read: r, write: w, status: types.IndexStatusCreating, until: t.until})
		for k := range keyAttributes(g.KeySchema) {
			used[k] = true
		}
	}
	if len(in.LocalSecondaryIndexes) > 5 {
		return nil, validation("One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5")
	}
	for _, l := range in.LocalSecondaryIndexes {
		if err := checkIndex(aws.ToString(l.IndexName), l.KeySchema, l.Projection); err != nil {
			return nil, err
		}
		if len(l.KeySchema) != 2 || aws.ToString(l.KeySchema[0].AttributeName) != aws.ToString(in.KeySchema[0].AttributeName) {
			return nil, validation("One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: %s", aws.ToString(l.IndexName))
		}
		for k := range keyAttributes(l.KeySchema) {
			used[k] = true
		}
	}
	t.lsis = in.LocalSecondaryIndexes
	if err := checkDefinitions(in.AttributeDefinitions, used); err != nil {
		return nil, err
	}
	if err := t.setStream(in.StreamSpecification, call.Now); err != nil {
		return nil, err
	}
	return t, nil
}

func keyAttributes(ks []types.KeySchemaElement) map[string]bool {
	out := map[string]bool{}
	for _, k := range ks {
		out[aws.ToString(k.AttributeName)] = true
	}
	return out
}

// checkKeySchema checks that a key schema is a HASH key, optionally followed by a RANGE key.
func checkKeySchema(ks []types.KeySchemaElement, of string) error {
	switch {
	case len(ks) == 0 || len(ks) > 2:
		return validation("1 validation error detected: Value at 'keySchema' of %s failed to satisfy constraint: Member must have length between 1 and 2", of)
	case ks[0].KeyType != types.KeyTypeHash:
		return validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	case len(ks) == 2 && ks[1].KeyType != types.KeyTypeRange:
		return validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
	case len(ks) == 2 && aws.ToString(ks[0].AttributeName) == aws.ToString(ks[1].AttributeName):
		return validation("Both the Hash Key and the Range Key element in the KeySchema have the same name")
	}
	return nil
}

func checkIndex(name string, ks []types.KeySchemaElement, p *types.Projection) error {
	if !tableName.MatchString(name) {
		return validation("Invalid index name: %s", name)
	}
	if err := checkKeySchema(ks, "index "+name); err != nil {
		return err
	}
	if p == nil {
		return validation("One or more parameter values were invalid: Projection is required for index: %s", name)
	}
	if p.ProjectionType == types.ProjectionTypeInclude && len(p.NonKeyAttributes) == 0 {
		return validation("One or more parameter values were invalid: ProjectionType is INCLUDE, but NonKeyAttributes is not specified")
	}
	if p.ProjectionType != types.ProjectionTypeInclude && len(p.NonKeyAttributes) > 0 {
		return validation("One or more parameter values were invalid: ProjectionType is %s, but NonKeyAttributes is specified", p.ProjectionType)
	}
	return nil
}

// checkDefinitions checks that the attribute definitions name exactly the key attributes used.
func checkDefinitions(defs []types.AttributeDefinition, used map[string]bool) error {
	defined := map[string]bool{}
	for _, d := range defs {
		defined[aws.ToString(d.AttributeName)] = true
		switch d.AttributeType {
		case types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB:
		default:
			return validation("1 validation error detected: Value '%s' at 'attributeDefinitions.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]", d.AttributeType)
		}
	}
	for k := range used {
		if !defined[k] {
			return validation("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: %v", k, sortedKeys(defined))
		}
	}
	for k := range defined {
		if !used[k] {
			return validation("One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions")
		}
	}
	return nil
}

// throughput checks provisioned throughput against the billing mode.
func throughput(mode types.BillingMode, pt *types.ProvisionedThroughput, of string) (int64, int64, error) {
	if mode == types.BillingModePayPerRequest {
		if pt != nil {
			return 0, 0, validation("One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		return 0, 0, nil
	}
	if pt == nil || pt.ReadCapacityUnits == nil || pt.WriteCapacityUnits == nil {
		return 0, 0, validation("One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED (%s)", of)
	}
	r, w := *pt.ReadCapacityUnits, *pt.WriteCapacityUnits
	if r < 1 || w < 1 {
		return 0, 0, validation("One or more parameter values were invalid: Provisioned throughput for %s must be at least 1", of)
	}
	return r, w, nil
}

func (t *table) setStream(s *types.StreamSpecification, now time.Time) error {
	if s == nil {
		return nil
	}
	if aws.ToBool(s.StreamEnabled) && s.StreamViewType == "" {
		return validation("One or more parameter values were invalid: StreamViewType is required when StreamEnabled is true")
	}
	if !aws.ToBool(s.StreamEnabled) {
		t.stream = nil
		return nil
	}
	t.stream = s
	t.streamLabel = now.UTC().Format("2006-01-02T15:04:05.000")
	return nil
}

// describe returns the table as DescribeTable reports it.
func (t *table) describe(now time.Time) *types.TableDescription {
	d := &types.TableDescription{
		TableName: aws.String(t.name), TableArn: aws.String(t.arn), TableId: aws.String(t.id),
		TableStatus: t.status, CreationDateTime: aws.Time(t.created),
		KeySchema: t.keySchema, AttributeDefinitions: t.attributes,
		ProvisionedThroughput: &types.ProvisionedThroughputDescription{
			ReadCapacityUnits: aws.Int64(t.read), WriteCapacityUnits: aws.Int64(t.write), NumberOfDecreasesToday: aws.Int64(0)},
		ItemCount: aws.Int64(0), TableSizeBytes: aws.Int64(0),
		TableClassSummary:         &types.TableClassSummary{TableClass: t.class},
		DeletionProtectionEnabled: aws.Bool(t.deletionProtection),
		SSEDescription:            t.sse,
	}
	// Like AWS, report the billing mode only for on-demand tables and tables that changed mode;
	// clients read an absent summary as PROVISIONED.
	if t.billing == types.BillingModePayPerRequest || t.switched != nil {
		d.BillingModeSummary = &types.BillingModeSummary{BillingMode: t.billing}
		if t.billing == types.BillingModePayPerRequest && t.switched != nil {
			d.BillingModeSummary.LastUpdateToPayPerRequestDateTime = t.switched
		}
	}
	if t.stream != nil {
		d.StreamSpecification = t.stream
		d.LatestStreamLabel = aws.String(t.streamLabel)
		d.LatestStreamArn = aws.String(t.arn + "/stream/" + t.streamLabel)
	}
	for _, g := range t.gsis {
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{
			IndexName: aws.String(g.name), KeySchema: g.keySchema, Projection: g.projection, IndexStatus: g.status,
			IndexArn: aws.String(t.arn + "/index/" + g.name), ItemCount: aws.Int64(0), IndexSizeBytes: aws.Int64(0),
			ProvisionedThroughput: &types.ProvisionedThroughputDescription{
				ReadCapacityUnits: aws.Int64(g.read), WriteCapacityUnits: aws.Int64(g.write), NumberOfDecreasesToday: aws.Int64(0)},
		})
	}
	for _, l := range t.lsis {
		d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, types.LocalSecondaryIndexDescription{
			IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection,
			IndexArn: aws.String(t.arn + "/index/" + aws.ToString(l.IndexName)), ItemCount: aws.Int64(0), IndexSizeBytes: aws.Int64(0),
		})
	}
	return d
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
