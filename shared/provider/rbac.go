package provider

// The provider controller reads AWSProviders and ClusterAWSProviders, writes their status and
// their in-use finalizers, watches Secret metadata and reads the Secrets that providers name,
// reads the kube-system namespace (the default install id), and records events. Every managed
// kind also writes the Secret or ConfigMap its spec.writeOutputsTo names (the engine never
// writes one it did not create). The secure metrics endpoint asks the API server to review
// each scraper's token and access (TokenReview, SubjectAccessReview).
//
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=awsproviders;clusterawsproviders,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=awsproviders/status;clusterawsproviders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=awsproviders/finalizers;clusterawsproviders/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;create;update;patch
// +kubebuilder:rbac:groups="",resources=namespaces,resourceNames=kube-system,verbs=get
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create
// +kubebuilder:rbac:groups=authorization.k8s.io,resources=subjectaccessreviews,verbs=create
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete
