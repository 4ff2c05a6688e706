package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// mappings is one side's Lambda, SQS and IAM clients, the UUID of the side's mapping once
// created, and settle, which lets the side's lifecycles finish.
type mappings struct {
	lambda   *lambda.Client
	sqs      *sqs.Client
	iam      *iam.Client
	settle   func()
	uuid     *string
	queues   map[string]string // queue ARNs by name
	bareRole string            // the ARN of a role without policies
}

// mappingSteps are alias calls (creation, a second alias of the same name, an update, deletion)
// and event source mapping calls on an SQS queue: creation, a second mapping of
// the same function and queue, reads, updates, what the API reference refuses (a function whose
// execution role may not read the queue included), and deletion.
func mappingSteps(t *testing.T) []step[*mappings] {
	ctx := context.Background()
	archive := lambdaArchive(t)
	fields := func(m types.EventSourceMappingConfiguration) map[string]string {
		f := map[string]string{"state": aws.ToString(m.State), "batchSize": strconv.Itoa(int(aws.ToInt32(m.BatchSize))),
			"window": strconv.Itoa(int(aws.ToInt32(m.MaximumBatchingWindowInSeconds)))}
		if arn := aws.ToString(m.FunctionArn); arn != "" {
			f["function"] = arn[strings.LastIndex(arn, ":")+1:]
		}
		if m.FilterCriteria != nil {
			f["filters"] = strconv.Itoa(len(m.FilterCriteria.Filters))
		}
		return f
	}
	queue := func(name string, fifo bool) func(c *mappings) outcome {
		return func(c *mappings) outcome {
			in := &sqs.CreateQueueInput{QueueName: aws.String(name)}
			if fifo {
				in.Attributes = map[string]string{"FifoQueue": "true"}
			}
			q, err := c.sqs.CreateQueue(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			a, err := c.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
			if err != nil {
				return observe(err, nil)
			}
			c.queues[name] = a.Attributes["QueueArn"]
			return observe(nil, nil)
		}
	}
	create := func(q string, edit func(*lambda.CreateEventSourceMappingInput)) func(c *mappings) outcome {
		return func(c *mappings) outcome {
			arn, ok := c.queues[q]
			if !ok {
				arn = strings.TrimSuffix(c.queues["diff-jobs"], "diff-jobs") + q
			}
			in := &lambda.CreateEventSourceMappingInput{FunctionName: aws.String("diff-worker"), EventSourceArn: aws.String(arn)}
			if edit != nil {
				edit(in)
			}
			out, err := c.lambda.CreateEventSourceMapping(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			if c.uuid == nil {
				c.uuid = out.UUID
			}
			return observe(nil, map[string]string{"batchSize": strconv.Itoa(int(aws.ToInt32(out.BatchSize)))})
		}
	}
	alias := func(in *lambda.CreateAliasInput) func(c *mappings) outcome {
		return func(c *mappings) outcome {
			in.FunctionName = aws.String("diff-worker")
			out, err := c.lambda.CreateAlias(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.FunctionVersion)})
		}
	}
	get := func(c *mappings) outcome {
		c.settle()
		out, err := c.lambda.GetEventSourceMapping(ctx, &lambda.GetEventSourceMappingInput{UUID: c.uuid})
		if err != nil {
			return observe(err, nil)
		}
		var m types.EventSourceMappingConfiguration
		m.State, m.BatchSize, m.MaximumBatchingWindowInSeconds, m.FunctionArn, m.FilterCriteria = out.State, out.BatchSize, out.MaximumBatchingWindowInSeconds, out.FunctionArn, out.FilterCriteria
		return observe(nil, fields(m))
	}
	return []step[*mappings]{
		{"CreateFunction", func(c *mappings) outcome {
			_, err := c.lambda.CreateFunction(ctx, pythonFunction("diff-worker", &types.FunctionCode{ZipFile: archive}))
			return observe(err, nil)
		}},
		{"PublishVersion", func(c *mappings) outcome {
			c.settle()
			out, err := c.lambda.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: aws.String("diff-worker")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.Version)})
		}},
		{"CreateAlias", alias(&lambda.CreateAliasInput{Name: aws.String("live"), FunctionVersion: aws.String("$LATEST")})},
		{"CreateAliasAgain", alias(&lambda.CreateAliasInput{Name: aws.String("live"), FunctionVersion: aws.String("1")})},
		{"CreateAliasOfMissingVersion", alias(&lambda.CreateAliasInput{Name: aws.String("next"), FunctionVersion: aws.String("9")})},
		{"UpdateAlias", func(c *mappings) outcome {
			out, err := c.lambda.UpdateAlias(ctx, &lambda.UpdateAliasInput{FunctionName: aws.String("diff-worker"), Name: aws.String("live"),
				FunctionVersion: aws.String("1"), Description: aws.String("pinned")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.FunctionVersion), "description": aws.ToString(out.Description)})
		}},
		{"GetAlias", func(c *mappings) outcome {
			out, err := c.lambda.GetAlias(ctx, &lambda.GetAliasInput{FunctionName: aws.String("diff-worker"), Name: aws.String("live")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.FunctionVersion), "description": aws.ToString(out.Description)})
		}},
		{"DeleteAlias", func(c *mappings) outcome {
			_, err := c.lambda.DeleteAlias(ctx, &lambda.DeleteAliasInput{FunctionName: aws.String("diff-worker"), Name: aws.String("live")})
			return observe(err, nil)
		}},
		{"GetAliasAfterDelete", func(c *mappings) outcome {
			_, err := c.lambda.GetAlias(ctx, &lambda.GetAliasInput{FunctionName: aws.String("diff-worker"), Name: aws.String("live")})
			return observe(err, nil)
		}},
		{"CreateQueue", queue("diff-jobs", false)},
		{"CreateFifoQueue", queue("diff-jobs.fifo", true)},
		{"CreateMapping", create("diff-jobs", func(in *lambda.CreateEventSourceMappingInput) {
			in.BatchSize = aws.Int32(5)
			in.FilterCriteria = &types.FilterCriteria{Filters: []types.Filter{{Pattern: aws.String(`{"body":{"type":["order"]}}`)}}}
		})},
		{"CreateMappingAgain", create("diff-jobs", nil)},
		{"GetMapping", get},
		{"ListMappings", func(c *mappings) outcome {
			out, err := c.lambda.ListEventSourceMappings(ctx, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String("diff-worker"), EventSourceArn: aws.String(c.queues["diff-jobs"])})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"count": strconv.Itoa(len(out.EventSourceMappings))})
		}},
		{"UpdateMapping", func(c *mappings) outcome {
			_, err := c.lambda.UpdateEventSourceMapping(ctx, &lambda.UpdateEventSourceMappingInput{UUID: c.uuid, BatchSize: aws.Int32(8), MaximumBatchingWindowInSeconds: aws.Int32(2)})
			return observe(err, nil)
		}},
		{"GetMappingAfterUpdate", get},
		{"DisableMapping", func(c *mappings) outcome {
			c.settle()
			_, err := c.lambda.UpdateEventSourceMapping(ctx, &lambda.UpdateEventSourceMappingInput{UUID: c.uuid, Enabled: aws.Bool(false)})
			return observe(err, nil)
		}},
		{"GetMappingDisabled", get},
		{"CreateForMissingQueue", create("diff-missing", nil)},
		{"CreateForMissingFunction", create("diff-jobs.fifo", func(in *lambda.CreateEventSourceMappingInput) { in.FunctionName = aws.String("diff-missing") })},
		{"CreateFifoBatchAbove10", create("diff-jobs.fifo", func(in *lambda.CreateEventSourceMappingInput) { in.BatchSize = aws.Int32(11) })},
		{"CreateQueueWithStartingPosition", create("diff-jobs.fifo", func(in *lambda.CreateEventSourceMappingInput) {
			in.StartingPosition = types.EventSourcePositionLatest
		})},
		{"CreateRoleWithoutPolicies", func(c *mappings) outcome {
			out, err := c.iam.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("diff-bare"),
				AssumeRolePolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}`)})
			if err != nil {
				return observe(err, nil)
			}
			c.bareRole = aws.ToString(out.Role.Arn)
			return observe(nil, nil)
		}},
		{"CreateFunctionWithBareRole", func(c *mappings) outcome {
			in := pythonFunction("diff-bare-worker", &types.FunctionCode{ZipFile: archive})
			in.Role = aws.String(c.bareRole)
			_, err := c.lambda.CreateFunction(ctx, in)
			return observe(err, nil)
		}},
		{"CreateMappingWithoutPermissions", func(c *mappings) outcome {
			_, err := c.lambda.CreateEventSourceMapping(ctx, &lambda.CreateEventSourceMappingInput{FunctionName: aws.String("diff-bare-worker"),
				EventSourceArn: aws.String(c.queues["diff-jobs"])})
			return observe(err, nil)
		}},
		{"GetMissingMapping", func(c *mappings) outcome {
			_, err := c.lambda.GetEventSourceMapping(ctx, &lambda.GetEventSourceMappingInput{UUID: aws.String("a1b2c3d4-0000-4000-8000-000000000000")})
			return observe(err, nil)
		}},
		{"DeleteMapping", func(c *mappings) outcome {
			c.settle()
			_, err := c.lambda.DeleteEventSourceMapping(ctx, &lambda.DeleteEventSourceMappingInput{UUID: c.uuid})
			return observe(err, nil)
		}},
		{"GetMappingAfterDelete", get},
	}
}

// TestLambdaEventSourceMappingsAgainstMoto compares aliases and event source mappings of SQS
// queues with moto's Lambda.
func TestLambdaEventSourceMappingsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	createMotoRole(t, peerURL)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	side := func(url string, settle func()) *mappings {
		cfg := sdkConfig(t, url)
		return &mappings{lambda: lambda.NewFromConfig(cfg), sqs: sqs.NewFromConfig(cfg), iam: iam.NewFromConfig(cfg), settle: settle, queues: map[string]string{}}
	}
	compare(t, side(emu.URL, func() { e.Clock.Advance(time.Minute) }), side(peerURL, func() {}), "moto "+motoVersion, mappingSteps(t), map[string]string{
		"CreateAliasAgain": "moto 5.2.1 answers ConflictException for an alias name the function has; AWS answers ResourceConflictException " +
			"(CreateAlias errors: Alias already exists)",
		"CreateMappingAgain": "moto 5.2.1 creates a second mapping of the same function and queue; AWS answers ResourceConflictException " +
			"(The event source arn ... and function ... provided mapping already exists. Please update or delete the existing mapping with UUID ...)",
		"ListMappings": "moto lists the second mapping it made (CreateMappingAgain); AWS has one mapping per function and source",
		"CreateForMissingQueue": "moto answers ResourceNotFoundException for a queue that does not exist; AWS answers InvalidParameterValueException " +
			"(Error occurred while ReceiveMessage. SQS Error Code: AWS.SimpleQueueService.NonExistentQueue)",
		"CreateFifoBatchAbove10": "moto fails with HTTP 500 on a FIFO queue's BatchSize above 10; AWS answers InvalidParameterValueException " +
			"(BatchSize of a FIFO queue: 1 to 10, CreateEventSourceMapping)",
		"CreateQueueWithStartingPosition": "moto accepts StartingPosition for an SQS queue; AWS takes it for streams only (Kinesis, DynamoDB Streams, " +
			"Kafka) and answers InvalidParameterValueException",
		"CreateMappingWithoutPermissions": "moto 5.2.1 checks no permissions and creates the mapping of a function whose execution role has no policy; " +
			"AWS answers InvalidParameterValueException (The provided execution role does not have permissions to call ReceiveMessage on SQS)",
	})
}
