package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// listing returns the provider session's listing of DB instances: one paginated
// DescribeDBInstances (100 instances a page, tags included) serves the periodic syncs of every
// instance under the session, instead of one call per instance. RDS filters instances by
// neither tag nor owner, so the listing holds every instance the credentials may see; the
// driver uses only the one an object records.
func listing(s *provider.Session, api rds.DescribeDBInstancesAPIClient) *managed.Listing[types.DBInstance] {
	return provider.Client(s, "rds/instance-listing", func(aws.Config) *managed.Listing[types.DBInstance] { return newListing(api) })
}

// newListing returns a listing of the DB instances api may describe, by identifier.
func newListing(api rds.DescribeDBInstancesAPIClient) *managed.Listing[types.DBInstance] {
	return &managed.Listing[types.DBInstance]{TTL: managed.ListingTTL, List: func(ctx context.Context) (map[string]types.DBInstance, error) {
		out := map[string]types.DBInstance{}
		pages := rds.NewDescribeDBInstancesPaginator(api, &rds.DescribeDBInstancesInput{MaxRecords: aws.Int32(100)})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return nil, fmt.Errorf("list DB instances: %w", err)
			}
			for _, inst := range page.DBInstances {
				out[aws.ToString(inst.DBInstanceIdentifier)] = inst
			}
		}
		return out, nil
	}}
}
