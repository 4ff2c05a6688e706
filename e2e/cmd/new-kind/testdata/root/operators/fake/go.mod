module github.com/runner-codes/infra-operator/operators/fake

go 1.26.0

require github.com/aws/aws-sdk-go-v2/service/ec2 v1.344.1
