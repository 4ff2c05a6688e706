package ec2

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// endpointService is one AWS service a VPC endpoint can reach: its short name after
// com.amazonaws.<region>., the endpoint types it offers and, for interface endpoints, the
// private DNS name its endpoints can take over.
type endpointService struct {
	short      string
	types      []types.VpcEndpointType
	privateDNS string // with %s for the region; empty when the service has none
}

// endpointServices are the services the emulator offers endpoints to: S3 and DynamoDB as
// gateway endpoints (S3 also as an interface endpoint), and a few interface services.
var endpointServices = []endpointService{
	{"dynamodb", []types.VpcEndpointType{types.VpcEndpointTypeGateway}, ""},
	{"ecr.api", []types.VpcEndpointType{types.VpcEndpointTypeInterface}, "api.ecr.%s.amazonaws.com"},
	{"ecr.dkr", []types.VpcEndpointType{types.VpcEndpointTypeInterface}, "*.dkr.ecr.%s.amazonaws.com"},
	{"logs", []types.VpcEndpointType{types.VpcEndpointTypeInterface}, "logs.%s.amazonaws.com"},
	{"s3", []types.VpcEndpointType{types.VpcEndpointTypeGateway, types.VpcEndpointTypeInterface}, ""},
	{"secretsmanager", []types.VpcEndpointType{types.VpcEndpointTypeInterface}, "secretsmanager.%s.amazonaws.com"},
	{"sts", []types.VpcEndpointType{types.VpcEndpointTypeInterface}, "sts.%s.amazonaws.com"},
}

// findEndpointService returns the service a full service name (com.amazonaws.us-east-1.s3) names in
// the caller's region, or AWS's InvalidServiceName error.
func findEndpointService(call *core.Call, name string) (endpointService, error) {
	short, ok := strings.CutPrefix(name, "com.amazonaws."+call.Region+".")
	if ok {
		for _, s := range endpointServices {
			if s.short == short {
				return s, nil
			}
		}
	}
	return endpointService{}, core.Errorf("InvalidServiceName", "The Vpc Endpoint Service '%s' does not exist", name)
}

// name returns the service's full name in a region.
func (s endpointService) name(region string) string { return "com.amazonaws." + region + "." + s.short }

// dnsName returns the private DNS name of the service in a region, or "" when it has none.
func (s endpointService) dnsName(region string) string {
	if s.privateDNS == "" {
		return ""
	}
	return strings.Replace(s.privateDNS, "%s", region, 1)
}

// prefixList returns the id of the AWS-managed prefix list a gateway service's routes go to;
// it is stable per service and region, as on AWS (pl-63a5400a for S3 in us-east-1).
func (s endpointService) prefixList(region string) string {
	sum := sha256.Sum256([]byte(s.name(region)))
	return "pl-" + hex.EncodeToString(sum[:])[:8]
}

// serviceID returns the stable id of the service's endpoint service of one type in a region.
func (s endpointService) serviceID(region string, t types.VpcEndpointType) string {
	sum := sha256.Sum256([]byte(s.name(region) + "/" + string(t)))
	return "vpce-svc-" + hex.EncodeToString(sum[:])[:17]
}
