package networking

// The networking family's permissions on its own kinds; the shared provider package adds
// AWSProviders, Secrets, events and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcs;subnets;internetgateways,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcs/status;subnets/status;internetgateways/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=vpcs/finalizers;subnets/finalizers;internetgateways/finalizers,verbs=update
