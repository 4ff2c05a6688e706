package lambdaeventsourcemapping

import (
	"errors"
	"testing"

	"github.com/aws/smithy-go"
)

func TestSourceRefused(t *testing.T) {
	refusal := func(code, message string) error { return &smithy.GenericAPIError{Code: code, Message: message} }
	cases := map[string]struct {
		reason string
		err    error
		want   bool
	}{
		"Queue": {reason: "An SQS queue the role may not read is refused so.",
			err: refusal("InvalidParameterValueException", "The provided execution role does not have permissions to call ReceiveMessage on SQS"), want: true},
		"QueueFunctionRole": {reason: "Lambda also says \"function execution role\".",
			err: refusal("InvalidParameterValueException", "The function execution role does not have permissions to call GetQueueAttributes on SQS"), want: true},
		"DynamoDBStream": {reason: "A DynamoDB stream the role may not read is refused so.",
			err: refusal("InvalidParameterValueException", "Cannot access stream arn:aws:dynamodb:us-east-1:123456789012:table/events/stream/2026-01-01T00:00:00.000. "+
				"Please ensure the role can perform the GetRecords, GetShardIterator, DescribeStream, and ListStreams Actions on your stream in IAM."), want: true},
		"KinesisStream": {reason: "A Kinesis stream the role may not read is refused so.",
			err: refusal("InvalidParameterValueException", "Cannot access stream arn:aws:kinesis:us-east-1:123456789012:stream/clicks. "+
				"Please ensure the role can perform the GetRecords, GetShardIterator, DescribeStream, ListShards, and ListStreams Actions on your stream in IAM."), want: true},
		"MissingQueue": {reason: "A queue that does not exist is another refusal.",
			err: refusal("InvalidParameterValueException", "Error occurred while ReceiveMessage. SQS Error Code: AWS.SimpleQueueService.NonExistentQueue."), want: false},
		"MissingStream": {reason: "A stream that does not exist is another refusal.",
			err: refusal("InvalidParameterValueException", "Stream not found: arn:aws:dynamodb:us-east-1:123456789012:table/events/stream/x"), want: false},
		"OtherCode": {reason: "The texts count under InvalidParameterValueException only.",
			err: refusal("AccessDeniedException", "Cannot access stream x. Please ensure the role can perform the GetRecords Actions on your stream in IAM."), want: false},
		"NotAWS": {reason: "An error that is not AWS's is no refusal.", err: errors.New("execution role does not have permissions"), want: false},
		"None":   {reason: "No error is no refusal.", err: nil, want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := sourceRefused(tc.err); got != tc.want {
				t.Errorf("%s\nsourceRefused(%v) = %v, want %v", tc.reason, tc.err, got, tc.want)
			}
		})
	}
}
