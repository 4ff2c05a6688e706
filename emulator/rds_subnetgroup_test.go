package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestRDSModifyDBSubnetGroup replaces the subnets of a DB subnet group, and checks the
// refusals AWS documents: an unknown group, too few zones, a malformed subnet id and the
// default group.
func TestRDSModifyDBSubnetGroup(t *testing.T) {
	_, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	if _, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String("Private"),
		DBSubnetGroupDescription: aws.String("private"), SubnetIds: []string{"subnet-0123456789abcdef0", "subnet-89abcdef"}}); err != nil {
		t.Fatal(err)
	}
	out, err := c.ModifyDBSubnetGroup(ctx, &rds.ModifyDBSubnetGroupInput{DBSubnetGroupName: aws.String("PRIVATE"),
		SubnetIds: []string{"subnet-89abcdef", "subnet-01234567", "subnet-76543210"}})
	if err != nil {
		t.Fatal(err)
	}
	described, err := c.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String("private")})
	if err != nil {
		t.Fatal(err)
	}
	for from, g := range map[string]*types.DBSubnetGroup{"ModifyDBSubnetGroup": out.DBSubnetGroup, "DescribeDBSubnetGroups": &described.DBSubnetGroups[0]} {
		if aws.ToString(g.DBSubnetGroupName) != "private" || aws.ToString(g.DBSubnetGroupDescription) != "private" {
			t.Errorf("%s: group %q described %q; want private, its description kept", from, aws.ToString(g.DBSubnetGroupName), aws.ToString(g.DBSubnetGroupDescription))
		}
	}
	var subnets []string
	for _, s := range described.DBSubnetGroups[0].Subnets {
		subnets = append(subnets, aws.ToString(s.SubnetIdentifier))
	}
	if diff := cmp.Diff([]string{"subnet-89abcdef", "subnet-01234567", "subnet-76543210"}, subnets); diff != "" {
		t.Errorf("subnets after the change\n-want +got:\n%s", diff)
	}
	if _, err := c.ModifyDBSubnetGroup(ctx, &rds.ModifyDBSubnetGroupInput{DBSubnetGroupName: aws.String("private"),
		DBSubnetGroupDescription: aws.String("moved"), SubnetIds: []string{"subnet-89abcdef", "subnet-01234567"}}); err != nil {
		t.Fatal(err)
	}
	if d, err := c.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String("private")}); err != nil ||
		aws.ToString(d.DBSubnetGroups[0].DBSubnetGroupDescription) != "moved" || len(d.DBSubnetGroups[0].Subnets) != 2 {
		t.Errorf("a description given is applied with the subnets: %+v, %v", d, err)
	}

	for name, tc := range map[string]struct {
		group   string
		subnets []string
		want    string
	}{
		"UnknownGroup": {"nothing", []string{"subnet-89abcdef", "subnet-01234567"}, "DBSubnetGroupNotFoundFault"},
		"OneZone":      {"private", []string{"subnet-89abcdef"}, "DBSubnetGroupDoesNotCoverEnoughAZs"},
		"BadSubnet":    {"private", []string{"subnet-1", "subnet-89abcdef"}, "InvalidSubnet"},
		"Default":      {"default", []string{"subnet-89abcdef", "subnet-01234567"}, "InvalidParameterValue"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := c.ModifyDBSubnetGroup(ctx, &rds.ModifyDBSubnetGroupInput{DBSubnetGroupName: aws.String(tc.group), SubnetIds: tc.subnets})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
