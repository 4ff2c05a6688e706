package elasticip

import (
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/runner-codes/infra-operator/shared/ec2util"
)

// addressAPI is the part of the EC2 API the driver uses.
type addressAPI interface {
	ec2util.TagAPI
	ec2util.AddressAPI
}

var _ addressAPI = (*ec2.Client)(nil)
