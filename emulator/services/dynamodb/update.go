package dynamodb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// updateTable applies the changes UpdateTable asks for. As on AWS, the table must be ACTIVE, a
// request must change something, and the table goes UPDATING for a while.
func (b *Backend) updateTable(call *core.Call, in *dynamodb.UpdateTableInput) (*dynamodb.UpdateTableOutput, error) {
	return withTable(b, call, in.TableName, func(t *table) (*dynamodb.UpdateTableOutput, error) {
		if t.status != types.TableStatusActive {
			return nil, core.Errorf("ResourceInUseException", "Attempt to change a resource which is still in use: Table: %s is in %s state", t.name, t.status)
		}
		// DynamoDB checks the new key before it changes anything.
		var sse *types.SSEDescription
		if in.SSESpecification != nil {
			var err error
			if sse, err = b.sseDescription(call, in.SSESpecification); err != nil {
				return nil, err
			}
		}
		changed := false
		if in.DeletionProtectionEnabled != nil && *in.DeletionProtectionEnabled != t.deletionProtection {
			t.deletionProtection, changed = *in.DeletionProtectionEnabled, true
		}
		if in.TableClass != "" && in.TableClass != t.class {
			t.class, changed = in.TableClass, true
		}
		if in.BillingMode != "" && in.BillingMode != t.billing {
			if in.BillingMode == types.BillingModeProvisioned && in.ProvisionedThroughput == nil {
				return nil, validation("One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED")
			}
			t.billing, changed = in.BillingMode, true
			t.switched = aws.Time(call.Now)
			if t.billing == types.BillingModePayPerRequest {
				t.read, t.write = 0, 0
				for _, g := range t.gsis {
					g.read, g.write = 0, 0
				}
			}
		}
		if in.ProvisionedThroughput != nil {
			r, w, err := throughput(t.billing, in.ProvisionedThroughput, "table")
			if err != nil {
				return nil, err
			}
			if r != t.read || w != t.write {
				t.read, t.write, changed = r, w, true
			}
		}
		if in.StreamSpecification != nil {
			if aws.ToBool(in.StreamSpecification.StreamEnabled) == (t.stream != nil) && t.stream != nil {
				return nil, validation("Table already has an enabled stream: %s", t.arn+"/stream/"+t.streamLabel)
			}
			if err := t.setStream(in.StreamSpecification, call.Now); err != nil {
				return nil, err
			}
			changed = true
		}
		if in.SSESpecification != nil {
			t.sse, changed = sse, true
		}
		if len(in.GlobalSecondaryIndexUpdates) > 0 {
			if err := b.updateIndexes(call, t, in); err != nil {
				return nil, err
			}
			changed = true
		}
		if !changed {
			return nil, validation("The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: %d. Requested ReadCapacityUnits: %d.", t.read, t.read)
		}
		t.status, t.until = types.TableStatusUpdating, call.Now.Add(call.Transition)
		return &dynamodb.UpdateTableOutput{TableDescription: t.describe(call.Now)}, nil
	})
}

// updateIndexes creates, updates and deletes global secondary indexes. The caller holds b.mu.
func (b *Backend) updateIndexes(call *core.Call, t *table, in *dynamodb.UpdateTableInput) error {
	find := func(name string) *index {
		for _, g := range t.gsis {
			if g.name == name {
				return g
			}
		}
		return nil
	}
	for _, u := range in.GlobalSecondaryIndexUpdates {
		switch {
		case u.Create != nil:
			c := u.Create
			name := aws.ToString(c.IndexName)
			if find(name) != nil {
				return validation("One or more parameter values were invalid: Index with name %s already exists", name)
			}
			if err := checkIndex(name, c.KeySchema, c.Projection); err != nil {
				return err
			}
			r, w, err := throughput(t.billing, c.ProvisionedThroughput, "index "+name)
			if err != nil {
				return err
			}
			defined := map[string]bool{}
			for _, d := range append(t.attributes, in.AttributeDefinitions...) {
				defined[aws.ToString(d.AttributeName)] = true
			}
			for k := range keyAttributes(c.KeySchema) {
				if !defined[k] {
					return validation("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s]", k)
				}
			}
			t.attributes = mergeDefinitions(t.attributes, in.AttributeDefinitions)
			t.gsis = append(t.gsis, &index{name: name, keySchema: c.KeySchema, projection: c.Projection, read: r, write: w,
				status: types.IndexStatusCreating, until: call.Now.Add(call.Transition)})
		case u.Update != nil:
			g := find(aws.ToString(u.Update.IndexName))
			if g == nil {
				return core.Errorf("ResourceNotFoundException", "Requested resource not found: Index: %s not found", aws.ToString(u.Update.IndexName))
			}
			r, w, err := throughput(t.billing, u.Update.ProvisionedThroughput, "index "+g.name)
			if err != nil {
				return err
			}
			g.read, g.write, g.status, g.until = r, w, types.IndexStatusUpdating, call.Now.Add(call.Transition)
		case u.Delete != nil:
			g := find(aws.ToString(u.Delete.IndexName))
			if g == nil {
				return core.Errorf("ResourceNotFoundException", "Requested resource not found: Index: %s not found", aws.ToString(u.Delete.IndexName))
			}
			g.status, g.until = types.IndexStatusDeleting, call.Now.Add(call.Transition)
		}
	}
	return nil
}

// mergeDefinitions adds the definitions in more that defs lacks.
func mergeDefinitions(defs, more []types.AttributeDefinition) []types.AttributeDefinition {
	have := map[string]bool{}
	for _, d := range defs {
		have[aws.ToString(d.AttributeName)] = true
	}
	for _, d := range more {
		if !have[aws.ToString(d.AttributeName)] {
			defs = append(defs, d)
			have[aws.ToString(d.AttributeName)] = true
		}
	}
	return defs
}
