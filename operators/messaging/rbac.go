package messaging

// The messaging family's permissions on its own kinds, and read access to the kinds of other
// families its references name (a kmsKeyRef names a KMSKey); the shared provider package adds
// AWSProviders, Secrets, events and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=sqsqueues;snstopics,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=sqsqueues/status;snstopics/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=sqsqueues/finalizers;snstopics/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=kmskeys,verbs=get;list;watch
