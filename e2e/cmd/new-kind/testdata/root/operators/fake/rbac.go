package fake

// The fake family's permissions on its own kinds.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=widgets,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=widgets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=widgets/finalizers,verbs=update
