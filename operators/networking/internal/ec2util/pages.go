package ec2util

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// Pages returns a Describer's Describe made of one paginated EC2 Describe call: request builds
// the call's input from the ids, the filters and the paging (pages of size; see Paging), and
// page returns the resources and the next page's token of the answer.
func Pages[In, Out, T any](size int32, call func(context.Context, *In, ...func(*ec2.Options)) (*Out, error),
	request func(ids []string, filters []types.Filter, limit *int32, next *string) *In, page func(*Out) ([]T, *string),
) func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]T, string, error) {
	return func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]T, string, error) {
		maxResults, token := Paging(ids, size, next)
		out, err := call(ctx, request(ids, filters, maxResults, token))
		if err != nil {
			return nil, "", err
		}
		items, following := page(out)
		return items, aws.ToString(following), nil
	}
}
