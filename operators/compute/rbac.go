package compute

// The compute family's permissions on its own kinds and on the ConfigMaps that hold Lambda
// deployment packages, and read access to the kinds of other families its references name
// (subnets, security groups, IAM roles, SQS queues, DynamoDB tables); the shared provider
// package adds AWSProviders, Secrets, events and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=ec2instances;lambdafunctions;eksclusters,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=ec2instances/status;lambdafunctions/status;eksclusters/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=ec2instances/finalizers;lambdafunctions/finalizers;eksclusters/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=subnets;securitygroups;iamroles;iaminstanceprofiles;sqsqueues;dynamodbtables,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=lambdaeventsourcemappings,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=lambdaeventsourcemappings/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=lambdaeventsourcemappings/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=lambdaaliases,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=lambdaaliases/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=lambdaaliases/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=eksaccessentries,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=eksaccessentries/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=eksaccessentries/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=ekspodidentityassociations,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=ekspodidentityassociations/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=ekspodidentityassociations/finalizers,verbs=update
