package lambda

import (
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listAliases lists a function's aliases. Aliases are not emulated (CreateAlias answers the
// unknown-operation error), so a function has none and the list is empty; MaxItems is
// checked as Lambda checks it (1 to 10000).
func (b *Backend) listAliases(call *core.Call, in *lambda.ListAliasesInput) (*lambda.ListAliasesOutput, error) {
	if _, err := maxItems(in.MaxItems, 50, 10000); err != nil {
		return nil, err
	}
	b.state.Lock()
	defer b.state.Unlock()
	if _, err := b.unqualified(call, in.FunctionName); err != nil {
		return nil, err
	}
	return &lambda.ListAliasesOutput{Aliases: []types.AliasConfiguration{}}, nil
}
