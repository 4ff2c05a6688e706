package caching

// The caching family's permissions on its own kinds and on the kinds of other families its
// references name; the shared provider package adds AWSProviders, Secrets, events and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=elasticacheclusters,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=elasticacheclusters/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=elasticacheclusters/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=securitygroups;subnets,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=elasticacheparametergroups,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=elasticacheparametergroups/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=elasticacheparametergroups/finalizers,verbs=update
