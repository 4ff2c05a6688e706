package edge

// The edge family's permissions on its own kinds, and read access to the kinds of other
// families its references name; the shared provider package adds AWSProviders, Secrets, events
// and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=apigateways,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=apigateways/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=apigateways/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=cloudfrontdistributions,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=cloudfrontdistributions/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=cloudfrontdistributions/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=albs,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=acmcertificates,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=s3buckets,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=lambdafunctions,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=nlbs,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=subnets,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=securitygroups,verbs=get;list;watch
