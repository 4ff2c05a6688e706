package core

import "testing"

// TestServiceAllowed checks the service principal, action and resource matching, the
// aws:SourceArn and aws:SourceAccount conditions, Deny over Allow, and that an unknown
// condition makes a statement not match.
func TestServiceAllowed(t *testing.T) {
	const queue = "arn:aws:sqs:us-east-1:111122223333:orders"
	const bucket = "arn:aws:s3:::uploads"
	allow := func(statement string) string { return `{"Version":"2012-10-17","Statement":[` + statement + `]}` }
	cases := []struct {
		name, policy, service, source string
		want                          bool
	}{
		{"no policy", "", "s3.amazonaws.com", bucket, false},
		{"the service", allow(`{"Effect":"Allow","Principal":{"Service":"s3.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"` + queue + `"}`), "s3.amazonaws.com", bucket, true},
		{"another service", allow(`{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage"}`), "s3.amazonaws.com", bucket, false},
		{"everyone, action wildcard", allow(`{"Effect":"Allow","Principal":"*","Action":"SQS:*"}`), "s3.amazonaws.com", bucket, true},
		{"another action", allow(`{"Effect":"Allow","Principal":"*","Action":"sqs:ReceiveMessage"}`), "s3.amazonaws.com", bucket, false},
		{"another resource", allow(`{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Resource":"arn:aws:sqs:us-east-1:111122223333:other"}`), "s3.amazonaws.com", bucket, false},
		{"source ARN like", allow(`{"Effect":"Allow","Principal":{"Service":["sns.amazonaws.com","s3.amazonaws.com"]},"Action":"sqs:SendMessage","Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:s3:::upl*"}}}`), "s3.amazonaws.com", bucket, true},
		{"source ARN differs", allow(`{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Condition":{"ArnEquals":{"aws:SourceArn":"arn:aws:s3:::other"}}}`), "s3.amazonaws.com", bucket, false},
		{"source account", allow(`{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Condition":{"StringEquals":{"aws:SourceAccount":"111122223333"}}}`), "sns.amazonaws.com", "arn:aws:sns:us-east-1:111122223333:t", true},
		{"another source account", allow(`{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Condition":{"StringEquals":{"aws:SourceAccount":"444455556666"}}}`), "s3.amazonaws.com", bucket, false},
		{"unknown condition", allow(`{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Condition":{"IpAddress":{"aws:SourceIp":"10.0.0.0/8"}}}`), "s3.amazonaws.com", bucket, false},
		{"deny wins", allow(`{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage"},{"Effect":"Deny","Principal":{"Service":"s3.amazonaws.com"},"Action":"sqs:*"}`), "s3.amazonaws.com", bucket, false},
	}
	for _, c := range cases {
		if got := ServiceAllowed(c.policy, c.service, "sqs:SendMessage", queue, c.source, "111122223333"); got != c.want {
			t.Errorf("%s: ServiceAllowed = %v, want %v", c.name, got, c.want)
		}
	}
}
