package provider

// The AWSProvider controller reads providers and writes their status, watches Secret metadata
// and reads the Secrets that providers name, and records events.
//
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=awsproviders,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=awsproviders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete
