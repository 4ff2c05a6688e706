// Package targets names every kind that a reference in another kind's spec may point to, and
// where the referenced object keeps the AWS identifier a reference resolves to. It is data
// only, so that any kind of any family can name any target without importing the package of
// another kind or another family: a RouteTable names the NATGateway target, and a
// LambdaFunction names the IAMRole target of the security family the same way.
package targets

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Target is a kind that references may name.
type Target struct {
	// Kind is the kind's name, for example "VPC".
	Kind string
	// Family is the family that serves the kind, for messages when it is not installed.
	Family string
	// ID is the path, in the referenced object, of the identifier a reference resolves to,
	// for example status.vpcID; with Element, the path of a list of named elements.
	ID []string
	// Element, when set, says that ID names a list of objects and that a reference resolves
	// to one field of the element its site names (a target group of a load balancer, by the
	// group's name).
	Element *Element
}

// Element is how a reference picks one element of a target's list: the element whose Key field
// equals the name the reference gives, and its ID field.
type Element struct {
	// Key is the field that names an element, for example "name".
	Key string
	// ID is the field of the element that a reference resolves to, for example "arn".
	ID string
}

// GroupVersionKind returns the target kind's API group, version and kind.
func (t Target) GroupVersionKind() schema.GroupVersionKind {
	return v1alpha1.GroupVersion.WithKind(t.Kind)
}

// Kinds of the networking family that references may name.
var (
	// VPC resolves to the VPC id.
	VPC = Target{Kind: "VPC", Family: "networking", ID: []string{"status", "vpcID"}}
	// Subnet resolves to the subnet id.
	Subnet = Target{Kind: "Subnet", Family: "networking", ID: []string{"status", "subnetID"}}
	// InternetGateway resolves to the internet gateway id.
	InternetGateway = Target{Kind: "InternetGateway", Family: "networking", ID: []string{"status", "internetGatewayID"}}
	// ElasticIP resolves to the allocation id.
	ElasticIP = Target{Kind: "ElasticIP", Family: "networking", ID: []string{"status", "allocationID"}}
	// NATGateway resolves to the NAT gateway id.
	NATGateway = Target{Kind: "NATGateway", Family: "networking", ID: []string{"status", "natGatewayID"}}
	// RouteTable resolves to the route table id (a gateway VPC endpoint's route tables).
	RouteTable = Target{Kind: "RouteTable", Family: "networking", ID: []string{"status", "routeTableID"}}
	// SecurityGroup resolves to the security group id.
	SecurityGroup = Target{Kind: "SecurityGroup", Family: "networking", ID: []string{"status", "groupID"}}
	// ALB resolves to the Application Load Balancer's DNS name, for the origins of a
	// CloudFront distribution.
	ALB = Target{Kind: "ALB", Family: "networking", ID: []string{"status", "dnsName"}}
	// ALBByARN resolves to the Application Load Balancer's ARN, for the listeners an API
	// Gateway private integration names.
	ALBByARN = Target{Kind: "ALB", Family: "networking", ID: []string{"status", "arn"}}
	// NLBByARN resolves to the Network Load Balancer's ARN.
	NLBByARN = Target{Kind: "NLB", Family: "networking", ID: []string{"status", "arn"}}
	// ALBTargetGroup resolves to the ARN of one target group of an Application Load
	// Balancer, named by the group's name (an ECS service's load balancers).
	ALBTargetGroup = Target{Kind: "ALB", Family: "networking", ID: []string{"status", "targetGroups"}, Element: &Element{Key: "name", ID: "arn"}}
	// NLBTargetGroup resolves to the ARN of one target group of a Network Load Balancer,
	// named by the group's name.
	NLBTargetGroup = Target{Kind: "NLB", Family: "networking", ID: []string{"status", "targetGroups"}, Element: &Element{Key: "name", ID: "arn"}}
	// Route53HostedZone resolves to the hosted zone's id, without the /hostedzone/ prefix (a
	// record set's zone, an ACM certificate's validation records).
	Route53HostedZone = Target{Kind: "Route53HostedZone", Family: "networking", ID: []string{"status", "hostedZoneID"}}
	// ALBHostedZone resolves to the Route 53 hosted zone of the Application Load Balancer's
	// DNS name (with ALB, an alias record's target).
	ALBHostedZone = Target{Kind: "ALB", Family: "networking", ID: []string{"status", "canonicalHostedZoneID"}}
	// NLB resolves to the Network Load Balancer's DNS name (an alias record's target).
	NLB = Target{Kind: "NLB", Family: "networking", ID: []string{"status", "dnsName"}}
	// NLBHostedZone resolves to the Route 53 hosted zone of the Network Load Balancer's DNS name.
	NLBHostedZone = Target{Kind: "NLB", Family: "networking", ID: []string{"status", "canonicalHostedZoneID"}}
	// VPCPeeringConnection resolves to the peering connection's id (a route table's routes).
	VPCPeeringConnection = Target{Kind: "VPCPeeringConnection", Family: "networking", ID: []string{"status", "vpcPeeringConnectionID"}}
)

// Kinds of the compute family that references may name.
var (
	// LambdaFunction resolves to the function's ARN.
	LambdaFunction = Target{Kind: "LambdaFunction", Family: "compute", ID: []string{"status", "functionARN"}}
	// EKSClusterOIDCIssuer resolves to the URL of the cluster's OpenID Connect issuer (an
	// IAMOIDCProvider's clusterRef).
	EKSClusterOIDCIssuer = Target{Kind: "EKSCluster", Family: "compute", ID: []string{"status", "oidcIssuer"}}
	// EKSCluster resolves to the cluster's name (the access entries and Pod Identity associations of a cluster).
	EKSCluster = Target{Kind: "EKSCluster", Family: "compute", ID: []string{"status", "clusterName"}}
	// EC2Instance resolves to the instance id (a target group's instance targets).
	EC2Instance = Target{Kind: "EC2Instance", Family: "compute", ID: []string{"status", "instanceID"}}
)

// Kinds of the containers family that references may name.
var (
	// ECRRepository resolves to the repository's URI, to which an image's tag or digest is
	// appended (an ECS task definition's container images).
	ECRRepository = Target{Kind: "ECRRepository", Family: "containers", ID: []string{"status", "repositoryURI"}}
	// ECSCluster resolves to the cluster's ARN.
	ECSCluster = Target{Kind: "ECSCluster", Family: "containers", ID: []string{"status", "arn"}}
	// ECSTaskDefinition resolves to the ARN of the revision the task definition registered
	// last.
	ECSTaskDefinition = Target{Kind: "ECSTaskDefinition", Family: "containers", ID: []string{"status", "taskDefinitionARN"}}
)

// Kinds of the edge family that references may name.
var (
	// CloudFrontDistribution resolves to the distribution's domain name (d111111abcdef8.
	// cloudfront.net), an alias record's target in CloudFront's hosted zone Z2FDTNDATAQYW2.
	CloudFrontDistribution = Target{Kind: "CloudFrontDistribution", Family: "edge", ID: []string{"status", "domainName"}}
	// APIGatewayDomain resolves to the name an API's custom domain's DNS record targets
	// (status.customDomain.targetDomainName), an alias record's target.
	APIGatewayDomain = Target{Kind: "APIGateway", Family: "edge", ID: []string{"status", "customDomain", "targetDomainName"}}
	// APIGatewayDomainHostedZone resolves to the Route 53 hosted zone of an API's custom
	// domain target name.
	APIGatewayDomainHostedZone = Target{Kind: "APIGateway", Family: "edge", ID: []string{"status", "customDomain", "hostedZoneID"}}
)

// Kinds of the data family that references may name.
var (
	// S3Bucket resolves to the bucket's name, from which the bucket's ARN and regional domain
	// name follow (a CloudFront distribution's S3 origin).
	S3Bucket = Target{Kind: "S3Bucket", Family: "data", ID: []string{"status", "bucketName"}}
	// DynamoDBTableStream resolves to the ARN of the table's latest stream, for the event
	// source mappings that read it: a table whose stream is not enabled has none, and is
	// waited for.
	DynamoDBTableStream = Target{Kind: "DynamoDBTable", Family: "data", ID: []string{"status", "streamARN"}}
	// RDSInstance resolves to the DB instance's identifier (a read replica's source, a
	// point-in-time restore's source).
	RDSInstance = Target{Kind: "RDSInstance", Family: "data", ID: []string{"status", "dbInstanceIdentifier"}}
	// RDSDBParameterGroup resolves to the DB parameter group's name (an RDS instance's
	// dbParameterGroupRef).
	RDSDBParameterGroup = Target{Kind: "RDSDBParameterGroup", Family: "data", ID: []string{"status", "name"}}
)

// Kinds of the caching family that references may name.
var (
	// ElastiCacheParameterGroup resolves to the cache parameter group's name (an ElastiCache
	// cluster's parameterGroupRef).
	ElastiCacheParameterGroup = Target{Kind: "ElastiCacheParameterGroup", Family: "caching", ID: []string{"status", "name"}}
)

// Kinds of the messaging family that references may name.
var (
	// SQSQueue resolves to the queue ARN.
	SQSQueue = Target{Kind: "SQSQueue", Family: "messaging", ID: []string{"status", "queueARN"}}
	// SNSTopic resolves to the topic ARN.
	SNSTopic = Target{Kind: "SNSTopic", Family: "messaging", ID: []string{"status", "topicARN"}}
)

// Kinds of the security family that references may name.
var (
	// IAMRole resolves to the role's ARN.
	IAMRole = Target{Kind: "IAMRole", Family: "security", ID: []string{"status", "arn"}}
	// IAMRoleName resolves to the role's name, for the fields IAM takes a role name in (an
	// IAMInstanceProfile's roleRef).
	IAMRoleName = Target{Kind: "IAMRole", Family: "security", ID: []string{"status", "roleName"}}
	// IAMInstanceProfile resolves to the instance profile's ARN (an EC2Instance's
	// iamInstanceProfileRef).
	IAMInstanceProfile = Target{Kind: "IAMInstanceProfile", Family: "security", ID: []string{"status", "arn"}}
	// IAMPolicy resolves to the customer managed policy's ARN (an IAMRole's policyRefs).
	IAMPolicy = Target{Kind: "IAMPolicy", Family: "security", ID: []string{"status", "arn"}}
	// KMSKey resolves to the key's ARN, which every service that encrypts with a customer
	// managed key accepts in place of its id.
	KMSKey = Target{Kind: "KMSKey", Family: "security", ID: []string{"status", "arn"}}
	// SecretsManagerSecret resolves to the secret's ARN (an ECS container's secrets).
	SecretsManagerSecret = Target{Kind: "SecretsManagerSecret", Family: "security", ID: []string{"status", "arn"}}
	// ACMCertificate resolves to the certificate's ARN.
	ACMCertificate = Target{Kind: "ACMCertificate", Family: "security", ID: []string{"status", "arn"}}
)
