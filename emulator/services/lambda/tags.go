package lambda

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are Lambda's limits on function tags: 50 a function (AWS Lambda Developer Guide,
// Lambda quotas and Using tags on Lambda functions). Lambda answers a request that breaks them
// with InvalidParameterValueException, the error TagResource and CreateFunction list for a
// parameter that is not valid (AWS Lambda API Reference).
var tagRules = core.TagRules{
	MaxTags: 50,
	TooMany: invalidParameter("A function can have at most 50 tags"),
	Invalid: core.InvalidTag("InvalidParameterValueException", "%s"),
}

// tagOperations are Lambda's tag operations, TagResource, UntagResource and ListTags, on the
// resource a request names by Resource.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "Resource", (*lambda.Client).TagResource, (*lambda.Client).UntagResource, (*lambda.Client).ListTags)
}

// tagging serves the tag operations on the caller's functions, by name or ARN, and on their
// event source mappings, by ARN. Tags belong to a function, not to its versions: it keeps them
// under its unqualified ARN.
func (b *Backend) tagging() core.Tagging[*string, struct{}] {
	return core.Tagging[*string, struct{}]{Lock: b.state,
		Find: func(call *core.Call, resource *string) (core.TagTarget, error) {
			if arn := aws.ToString(resource); strings.Contains(arn, ":event-source-mapping:") {
				b.settleMappings(call.Now)
				m, ok := b.mappings[arn[strings.LastIndex(arn, ":")+1:]]
				if !ok || m.scope != call.Scope() || aws.ToString(m.cfg.EventSourceMappingArn) != arn {
					return core.TagTarget{}, mappingNotFound()
				}
				return core.TagTarget{Tags: b.tags, ID: arn}, nil
			}
			f, err := b.unqualified(call, resource)
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: b.tags, ID: aws.ToString(f.cfg.FunctionArn)}, nil
		},
	}
}
