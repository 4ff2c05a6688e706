package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// TestEC2RouteTableClientToken checks CreateRouteTable's idempotency token, as AWS documents
// it: a repeated token answers the table it created (a retried create makes no second table),
// the same token with other parameters is IdempotentParameterMismatch.
func TestEC2RouteTableClientToken(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	vpc, other := createVpc(t, c, "10.0.0.0/16"), createVpc(t, c, "10.1.0.0/16")
	in := &ec2.CreateRouteTableInput{VpcId: aws.String(vpc), ClientToken: aws.String("token-1")}
	first, err := c.CreateRouteTable(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.CreateRouteTable(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := aws.ToString(first.RouteTable.RouteTableId), aws.ToString(again.RouteTable.RouteTableId); a != b || aws.ToString(again.ClientToken) != "token-1" {
		t.Errorf("a repeated token made table %s after %s (token %q); want the same table", b, a, aws.ToString(again.ClientToken))
	}
	out, err := c.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{Filters: []ec2types.Filter{filter("vpc-id", vpc)}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out.RouteTables); n != 2 {
		t.Errorf("VPC %s has %d route tables; want its main one and one created", vpc, n)
	}
	_, err = c.CreateRouteTable(ctx, &ec2.CreateRouteTableInput{VpcId: aws.String(other), ClientToken: aws.String("token-1")})
	if err == nil || !strings.Contains(err.Error(), "IdempotentParameterMismatch") {
		t.Errorf("the token with another VPC: %v; want IdempotentParameterMismatch", err)
	}
}
