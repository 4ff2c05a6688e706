package emulator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	rdstypes "github.com/aws/aws-sdk-go-v2/service/rds/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator"
)

// numbered returns n tags key0=value0 ... made by tag, counting from first.
func numbered[T any](first, n int, tag func(k, v string) T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = tag(fmt.Sprintf("key%d", first+i), fmt.Sprintf("value%d", first+i))
	}
	return out
}

func rdsTag(k, v string) rdstypes.Tag { return rdstypes.Tag{Key: aws.String(k), Value: aws.String(v)} }
func ec2Tag(k, v string) ec2types.Tag { return ec2types.Tag{Key: aws.String(k), Value: aws.String(v)} }
func snsTag(k, v string) snstypes.Tag { return snstypes.Tag{Key: aws.String(k), Value: aws.String(v)} }

// TestRDSTagLimit checks that RDS keeps a resource to 50 tags, as AWS does, answering the 51st
// with its InvalidParameterValue, and refuses the reserved aws: and rds: prefixes.
func TestRDSTagLimit(t *testing.T) {
	_, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	in := postgres("tagged")
	in.Tags = numbered(0, 50, rdsTag)
	created, err := c.CreateDBInstance(ctx, in)
	if err != nil {
		t.Fatalf("creating an instance with 50 tags: %v", err)
	}
	arn := created.DBInstance.DBInstanceArn
	cases := map[string]struct {
		reason string
		tags   []rdstypes.Tag
		want   string
	}{
		"Fifty-first": {"A resource has at most 50 tags.", numbered(50, 1, rdsTag), "InvalidParameterValue"},
		"Replace":     {"Replacing values adds no tag.", numbered(0, 50, func(k, _ string) rdstypes.Tag { return rdsTag(k, "new") }), ""},
		"ReservedAWS": {"aws: is AWS's prefix.", []rdstypes.Tag{rdsTag("aws:owner", "x")}, "InvalidParameterValue"},
		"ReservedRDS": {"rds: is RDS's prefix.", []rdstypes.Tag{rdsTag("RDS:owner", "x")}, "InvalidParameterValue"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.AddTagsToResource(ctx, &rds.AddTagsToResourceInput{ResourceName: arn, Tags: tc.tags})
			if got := errorCode(err); got != tc.want {
				t.Errorf("%s AddTagsToResource: %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
	if got := describeInstance(t, c, "tagged").TagList; len(got) != 50 {
		t.Errorf("the instance has %d tags after the refused calls, want 50", len(got))
	}

	in = postgres("overtagged")
	in.Tags = numbered(0, 51, rdsTag)
	if _, err := c.CreateDBInstance(ctx, in); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("creating an instance with 51 tags: %v, want InvalidParameterValue", err)
	}
	if _, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String("overtagged")}); errorCode(err) != "DBInstanceNotFound" {
		t.Errorf("the refused instance: %v, want DBInstanceNotFound", err)
	}
	_, err = c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("overtagged"),
		DBParameterGroupFamily: aws.String("postgres16"), Description: aws.String("too many tags"), Tags: numbered(0, 51, rdsTag)})
	if errorCode(err) != "InvalidParameterValue" {
		t.Errorf("creating a parameter group with 51 tags: %v, want InvalidParameterValue", err)
	}
}

// TestEC2TagLimit checks EC2's limit of 50 tags a resource (TagLimitExceeded), on CreateTags
// and on TagSpecifications, and that CreateTags tags every resource or none.
func TestEC2TagLimit(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	full, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16"),
		TagSpecifications: []ec2types.TagSpecification{{ResourceType: ec2types.ResourceTypeVpc, Tags: numbered(0, 50, ec2Tag)}}})
	if err != nil {
		t.Fatalf("creating a VPC with 50 tags: %v", err)
	}
	fullID := aws.ToString(full.Vpc.VpcId)
	other := createVpc(t, c, "10.1.0.0/16")
	_, err = c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{other, fullID}, Tags: numbered(50, 1, ec2Tag)})
	if errorCode(err) != "TagLimitExceeded" {
		t.Errorf("a 51st tag: %v, want TagLimitExceeded", err)
	}
	vpcs, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{fullID, other}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vpcs.Vpcs {
		if want := map[string]int{fullID: 50, other: 0}[aws.ToString(v.VpcId)]; len(v.Tags) != want {
			t.Errorf("%s has %d tags after the refused CreateTags, want %d", aws.ToString(v.VpcId), len(v.Tags), want)
		}
	}
	_, err = c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: aws.String(other), CidrBlock: aws.String("10.1.1.0/24"),
		TagSpecifications: []ec2types.TagSpecification{{ResourceType: ec2types.ResourceTypeSubnet, Tags: numbered(0, 51, ec2Tag)}}})
	if errorCode(err) != "TagLimitExceeded" {
		t.Errorf("creating a subnet with 51 tags: %v, want TagLimitExceeded", err)
	}
	subnets, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []ec2types.Filter{filter("vpc-id", other)}})
	if err != nil || len(subnets.Subnets) != 0 {
		t.Errorf("the refused subnet was created: %v, %v", subnets, err)
	}
}

// TestSQSTagLimit checks SQS's limit of 50 tags a queue, on TagQueue and CreateQueue.
func TestSQSTagLimit(t *testing.T) {
	_, c := sqsClient(t)
	ctx := context.Background()
	tags := map[string]string{}
	for i := range 50 {
		tags[fmt.Sprintf("key%d", i)] = fmt.Sprintf("value%d", i)
	}
	q, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("tagged"), Tags: tags})
	if err != nil {
		t.Fatalf("creating a queue with 50 tags: %v", err)
	}
	if _, err := c.TagQueue(ctx, &sqs.TagQueueInput{QueueUrl: q.QueueUrl, Tags: map[string]string{"key50": "value50"}}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("a 51st tag: %v, want InvalidParameterValue", err)
	}
	listed, err := c.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: q.QueueUrl})
	if err != nil || len(listed.Tags) != 50 {
		t.Errorf("the queue's tags after the refused TagQueue: %d, %v; want 50", len(listed.Tags), err)
	}
	tags["key50"] = "value50"
	if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("overtagged"), Tags: tags}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("creating a queue with 51 tags: %v, want InvalidParameterValue", err)
	}
}

// TestSNSTagLimit checks SNS's limit of 50 tags a topic, answered with TagLimitExceeded as the
// SNS API reference documents for TagResource and CreateTopic.
func TestSNSTagLimit(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := sns.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	topic, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("tagged"), Tags: numbered(0, 50, snsTag)})
	if err != nil {
		t.Fatalf("creating a topic with 50 tags: %v", err)
	}
	if _, err := c.TagResource(ctx, &sns.TagResourceInput{ResourceArn: topic.TopicArn, Tags: numbered(50, 1, snsTag)}); errorCode(err) != "TagLimitExceeded" {
		t.Errorf("a 51st tag: %v, want TagLimitExceeded", err)
	}
	listed, err := c.ListTagsForResource(ctx, &sns.ListTagsForResourceInput{ResourceArn: topic.TopicArn})
	if err != nil || len(listed.Tags) != 50 {
		t.Errorf("the topic's tags after the refused TagResource: %d, %v; want 50", len(listed.Tags), err)
	}
	if _, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("overtagged"), Tags: numbered(0, 51, snsTag)}); errorCode(err) != "TagLimitExceeded" {
		t.Errorf("creating a topic with 51 tags: %v, want TagLimitExceeded", err)
	}
}
