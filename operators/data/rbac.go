package data

// The data family's permissions on its own kinds, and read access to the kinds of other
// families its references name (a kmsKeyRef names a KMSKey, the securityGroupRefs and subnetRefs
// of an RDSInstance or an RDSDBCluster name SecurityGroups and Subnets, an S3Bucket's notifications name SQSQueues,
// SNSTopics and LambdaFunctions); the shared provider package adds
// AWSProviders, Secrets, events and leases.
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=s3buckets;dynamodbtables;rdsinstances,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=s3buckets/status;dynamodbtables/status;rdsinstances/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=s3buckets/finalizers;dynamodbtables/finalizers;rdsinstances/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=kmskeys;securitygroups;subnets;sqsqueues;snstopics;lambdafunctions;iamroles,verbs=get;list;watch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=rdsdbparametergroups,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=rdsdbparametergroups/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=rdsdbparametergroups/finalizers,verbs=update
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=rdsdbclusters,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=rdsdbclusters/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=aws-infra-operator.runner.codes,resources=rdsdbclusters/finalizers,verbs=update
