package networking

// The networking family's permissions on its own kinds, and read access to the kinds of other
// families its references name (a listener's certificateRef names an ACMCertificate, a target group's targets EC2Instances
// and LambdaFunctions); the
// shared provider package adds AWSProviders, Secrets, events and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcs;subnets;internetgateways,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcs/status;subnets/status;internetgateways/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcs/finalizers;subnets/finalizers;internetgateways/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=natgateways;elasticips,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=natgateways/status;elasticips/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=natgateways/finalizers;elasticips/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=securitygroups;routetables,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=securitygroups/status;routetables/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=securitygroups/finalizers;routetables/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=albs;nlbs,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=albs/status;nlbs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=albs/finalizers;nlbs/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=acmcertificates,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=ec2instances;lambdafunctions,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcendpoints,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcendpoints/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcendpoints/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=route53hostedzones,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=route53hostedzones/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=route53hostedzones/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=route53recordsets,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=route53recordsets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=route53recordsets/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=cloudfrontdistributions;apigateways,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcpeeringconnections,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcpeeringconnections/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcpeeringconnections/finalizers,verbs=update
