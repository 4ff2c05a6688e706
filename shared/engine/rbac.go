package engine

// The operator answers Previews: it reads them, writes their status and deletes expired ones.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=previews,verbs=get;list;watch;delete
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=previews/status,verbs=get;update;patch
