package security

// The security family's permissions on its own kinds; the shared provider package adds
// AWSProviders, Secrets, events and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iamroles,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iamroles/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iamroles/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=secretsmanagersecrets,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=secretsmanagersecrets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=secretsmanagersecrets/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=kmskeys,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=kmskeys/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=kmskeys/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=acmcertificates,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=acmcertificates/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=acmcertificates/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iampolicies,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iampolicies/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iampolicies/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iaminstanceprofiles,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iaminstanceprofiles/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iaminstanceprofiles/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iamoidcproviders,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iamoidcproviders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=iamoidcproviders/finalizers,verbs=update
// IAMOIDCProvider's clusterRef reads EKSClusters of the compute family.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=eksclusters,verbs=get;list;watch
// ACMCertificate's hostedZoneRef reads Route53HostedZones of the networking family.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=route53hostedzones,verbs=get;list;watch
