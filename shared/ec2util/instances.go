package ec2util

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// Instance is an EC2 instance as DescribeInstances answers it, with the account of its
// reservation, which its ARN names.
type Instance struct {
	types.Instance
	// OwnerID is the id of the account that owns the instance.
	OwnerID string
}

// ARN returns the instance's ARN in region.
func (i Instance) ARN(partition, region string) string {
	return "arn:" + partition + ":ec2:" + region + ":" + i.OwnerID + ":instance/" + aws.ToString(i.InstanceId)
}

// Instances reads instances, 1000 a page, flattening DescribeInstances' reservations.
func Instances(api *ec2.Client) Describer[Instance] {
	return paged("instance", 1000, api.DescribeInstances, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeInstancesInput {
		return &ec2.DescribeInstancesInput{InstanceIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeInstancesOutput) ([]Instance, *string) {
		var all []Instance
		for _, r := range out.Reservations {
			for _, i := range r.Instances {
				all = append(all, Instance{Instance: i, OwnerID: aws.ToString(r.OwnerId)})
			}
		}
		return all, out.NextToken
	}, func(i Instance) string { return aws.ToString(i.InstanceId) })
}
