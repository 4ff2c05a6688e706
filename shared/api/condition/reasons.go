package condition

// Reasons the reconcile engine gives for the resource's lifecycle.
const (
	// ReasonAvailable says the AWS resource is usable.
	ReasonAvailable = "Available"
	// ReasonCreating says AWS is creating the resource.
	ReasonCreating = "Creating"
	// ReasonUpdating says the spec is being applied to the resource.
	ReasonUpdating = "Updating"
	// ReasonUnavailable says a resource that was usable is not usable now.
	ReasonUnavailable = "Unavailable"
	// ReasonDeleting says AWS is deleting the resource.
	ReasonDeleting = "Deleting"
	// ReasonReconcileSuccess says the last reconcile succeeded.
	ReasonReconcileSuccess = "ReconcileSuccess"
	// ReasonReconcileError says the last reconcile failed and is retried with backoff.
	ReasonReconcileError = "ReconcileError"
	// ReasonPaused says the pause annotation stops reconciliation.
	ReasonPaused = "ReconcilePaused"
	// ReasonNotConverging is the event reason for a resource that still differs from the
	// spec after several updates.
	ReasonNotConverging = "NotConverging"
	// ReasonDriftDetected is the event reason for a resource changed outside the operator.
	ReasonDriftDetected = "DriftDetected"
	// ReasonDriftReported says, on the Drifted condition, that driftPolicy Report (or
	// managementPolicy ObserveOnly) leaves a difference in place.
	ReasonDriftReported = "DriftReported"
	// ReasonDriftRestored says, on the Drifted condition, that the operator restored the spec.
	ReasonDriftRestored = "DriftRestored"
	// ReasonInSync says, on the Drifted condition, that the resource matches the spec again.
	ReasonInSync = "InSync"
	// ReasonAwaitingApproval says, on the PlanPending condition, that changes wait for the
	// annotation approving the plan's hash (changePolicy Manual).
	ReasonAwaitingApproval = "AwaitingApproval"
	// ReasonPlanApproved says, on the PlanPending condition, that the approved plan was applied.
	ReasonPlanApproved = "PlanApproved"
	// ReasonObserved says an ObserveOnly object found its AWS resource and reports it.
	ReasonObserved = "Observed"
	// ReasonNotFoundInAWS says an ObserveOnly object found no AWS resource to observe, or that
	// the resource of an object with driftPolicy Report was deleted outside the operator and
	// is reported, not created again.
	ReasonNotFoundInAWS = "NotFoundInAWS"
	// ReasonOutputsNotWritten says the outputs Secret or ConfigMap could not be written (it
	// exists and another owner holds it, or a Secret it copies is missing).
	ReasonOutputsNotWritten = "OutputsNotWritten"
)

// Reasons for errors: terminal ones (the spec must change) and ones retried with backoff.
const (
	// ReasonInvalidSpec says the spec is refused before any AWS call.
	ReasonInvalidSpec = "InvalidSpec"
	// ReasonAWSRejected says AWS refused a request as invalid.
	ReasonAWSRejected = "AWSRejectedRequest"
	// ReasonThrottled says AWS throttled the requests; they are retried.
	ReasonThrottled = "Throttled"
	// ReasonAccessDenied says the provider's identity may not make a call.
	ReasonAccessDenied = "AccessDenied"
	// ReasonQuotaExceeded says an AWS quota is reached; retried.
	ReasonQuotaExceeded = "QuotaExceeded"
	// ReasonDependencyViolation says another AWS resource still depends on this one.
	ReasonDependencyViolation = "DependencyViolation"
	// ReasonTooManyTags says the resource would carry more tags than AWS allows.
	ReasonTooManyTags = "TooManyTags"
	// ReasonAlreadyExists says an AWS name is taken by a resource this object does not own.
	ReasonAlreadyExists = "AlreadyExists"
	// ReasonOwnedByAnother says the resource's ownership tags name another object or install.
	ReasonOwnedByAnother = "OwnedByAnother"
	// ReasonDuplicateResources says several AWS resources carry one object's ownership tags.
	ReasonDuplicateResources = "DuplicateResources"
	// ReasonTakeoverNotAllowed says the resource belongs to another namespace's object or to
	// another install, and the administrator has not let the object's namespace take over or
	// observe such resources (operator flag --takeover-namespaces).
	ReasonTakeoverNotAllowed = "TakeoverNotAllowed"
	// ReasonAdoptionNotAllowed says the resource carries no ownership tags (the operator did not
	// create it), and the administrator has not let the object's namespace adopt such resources
	// (operator flag --adoption-namespaces).
	ReasonAdoptionNotAllowed = "AdoptionNotAllowed"
	// ReasonForeignWriteNotAllowed says a field names, by ARN, a resource that does not carry the
	// object's namespace in its ownership tags, and writing into it (a permission, a policy
	// statement) needs the administrator's leave (operator flag --foreign-write-namespaces).
	ReasonForeignWriteNotAllowed = "ForeignWriteNotAllowed"
	// ReasonDeletionProtected says deletion protection keeps the resource from being deleted.
	ReasonDeletionProtected = "DeletionProtected"
)

// Reasons of an object waiting for what its spec refers to.
const (
	// ReasonReferenceNotFound says a referenced object does not exist (yet).
	ReasonReferenceNotFound = "ReferenceNotFound"
	// ReasonReferenceNotReady says a referenced object exists and is not Ready yet.
	ReasonReferenceNotReady = "ReferenceNotReady"
	// ReasonReferenceFailed says a referenced object failed (its Stalled condition is True):
	// the object waits for it to be fixed, and goes on by itself once it is Ready.
	ReasonReferenceFailed = "ReferenceFailed"
	// ReasonReferenceObserveOnly says a reference that writes into its target's AWS resource
	// (a policy statement, a permission) names an object with managementPolicy ObserveOnly,
	// whose resource the operator never writes to.
	ReasonReferenceObserveOnly = "ReferenceObserveOnly"
	// ReasonReferenceKindNotInstalled says the referenced kind's family is not installed.
	ReasonReferenceKindNotInstalled = "ReferenceKindNotInstalled"
	// ReasonSecretNotFound says a Secret the spec names does not exist (yet).
	ReasonSecretNotFound = "SecretNotFound"
	// ReasonSecretKeyNotFound says a Secret lacks the key the spec names.
	ReasonSecretKeyNotFound = "SecretKeyNotFound"
	// ReasonSecretValueInvalid says a Secret's value is not acceptable (without the value).
	ReasonSecretValueInvalid = "SecretValueInvalid"
)

// Reasons about the AWSProvider or ClusterAWSProvider an object uses, and the provider's own.
const (
	// ReasonProviderNotReady says the provider is not ready.
	ReasonProviderNotReady = "ProviderNotReady"
	// ReasonProviderNotChecked says the provider has not been validated yet.
	ReasonProviderNotChecked = "ProviderNotValidated"
	// ReasonProviderNotFound says the provider does not exist.
	ReasonProviderNotFound = "ProviderNotFound"
	// ReasonProviderNotAllowed says a ClusterAWSProvider does not allow the namespace.
	ReasonProviderNotAllowed = "ProviderNotAllowed"
	// ReasonInvalidRegion says the provider's region is not valid.
	ReasonInvalidRegion = "InvalidRegion"
	// ReasonConfigFailed says the AWS configuration could not be built.
	ReasonConfigFailed = "ConfigFailed"
	// ReasonCredentialsValid says the provider's credentials were accepted by STS.
	ReasonCredentialsValid = "CredentialsValid"
	// ReasonCredentialsRejected says STS refused the provider's credentials.
	ReasonCredentialsRejected = "CredentialsRejected"
	// ReasonEndpointUnreachable says the provider's endpoint did not answer.
	ReasonEndpointUnreachable = "EndpointUnreachable"
	// ReasonValidationFailed says the provider could not be validated for another reason.
	ReasonValidationFailed = "ValidationFailed"
	// ReasonInUse is the event reason for a provider kept while objects use it.
	ReasonInUse = "InUse"
	// ReasonOperatorIdentityNotAllowed says the namespace may not use the operator's identity.
	ReasonOperatorIdentityNotAllowed = "OperatorIdentityNotAllowed"
	// ReasonRoleNotAllowed says the namespace may not assume the role.
	ReasonRoleNotAllowed = "RoleNotAllowed"
	// ReasonEndpointNotAllowed says endpoint overrides are not allowed.
	ReasonEndpointNotAllowed = "EndpointNotAllowed"
	// ReasonEndpointNeedsStaticKeys says a namespaced provider with an endpoint must bring
	// static keys.
	ReasonEndpointNeedsStaticKeys = "EndpointNeedsStaticKeys"
	// ReasonEndpointAddressNotAllowed says a namespaced provider's endpoint names, or resolves
	// to, an address no namespace may reach through the operator: link-local (instance
	// metadata), loopback (unless the administrator allows it), an in-cluster service or the
	// API server; or it is not an http(s) URL.
	ReasonEndpointAddressNotAllowed = "EndpointAddressNotAllowed"
)

// Reasons particular to one kind.
const (
	// ReasonBucketNotEmpty says an S3 bucket holds objects and forceDelete is not set.
	ReasonBucketNotEmpty = "BucketNotEmpty"
	// ReasonFinalSnapshotExists says an RDS or ElastiCache final snapshot of the name already
	// exists.
	ReasonFinalSnapshotExists = "FinalSnapshotExists"
	// ReasonGroupNotFound says an RDS subnet, parameter or option group, or an ElastiCache
	// subnet group, does not exist.
	ReasonGroupNotFound = "GroupNotFound"
	// ReasonIdentifierTaken says an RDS or ElastiCache identifier is taken.
	ReasonIdentifierTaken = "IdentifierTaken"
	// ReasonQueueDeletedRecently says SQS refuses a queue name deleted less than 60 s ago.
	ReasonQueueDeletedRecently = "QueueDeletedRecently"
	// ReasonAliasTaken says a KMS alias of the spec points at a key the object does not own.
	ReasonAliasTaken = "AliasTaken"
	// ReasonDomainNameTaken says the custom domain name of an API Gateway API exists in the
	// account and is not the object's.
	ReasonDomainNameTaken = "DomainNameTaken"
	// ReasonKeyReused is the event reason for a KMS key pending deletion, scheduled when an
	// earlier object of the same namespace and name was deleted, that a new object took back.
	ReasonKeyReused = "KeyReused"
	// ReasonConfigMapNotFound says a ConfigMap the spec names, or its key, does not exist (yet).
	ReasonConfigMapNotFound = "ConfigMapNotFound"
	// ReasonFunctionFailed says AWS reports the Lambda function, or its last update, as failed.
	ReasonFunctionFailed = "FunctionFailed"
	// ReasonSourcePermissionsMissing says Lambda refused an event source mapping because the
	// function's execution role may not read the source (sqs:ReceiveMessage, a stream's reads).
	ReasonSourcePermissionsMissing = "SourcePermissionsMissing"
	// ReasonEnvironmentTooLarge says a Lambda function's environment variables, Secret values
	// included, are over the 4 KB Lambda allows; it names the size, never a value.
	ReasonEnvironmentTooLarge = "EnvironmentTooLarge"
	// ReasonEndpointQueueNotFound says an SNS subscription's queue does not exist.
	ReasonEndpointQueueNotFound = "EndpointQueueNotFound"
	// ReasonDeploymentFailed says the ECS deployment circuit breaker stopped a service's
	// deployment because its tasks failed to start; the message names the stopped tasks'
	// reasons. The revision is not deployed again until the spec changes.
	ReasonDeploymentFailed = "DeploymentFailed"
	// ReasonNATGatewayFailed says AWS reports the NAT gateway as failed.
	ReasonNATGatewayFailed = "NATGatewayFailed"
	// ReasonNoInternetGateway says a public NAT gateway's VPC has no internet gateway.
	ReasonNoInternetGateway = "InternetGatewayNotAttached"
	// ReasonRestartRequired says an EC2 instance must be stopped for a change of its spec, and
	// the spec does not allow the operator to stop it.
	ReasonRestartRequired = "RestartRequired"
	// ReasonEKSClusterFailed says AWS reports the EKS cluster as FAILED.
	ReasonEKSClusterFailed = "EKSClusterFailed"
	// ReasonEKSNodeGroupFailed says an EKS managed node group failed to be created or deleted.
	ReasonEKSNodeGroupFailed = "EKSNodeGroupFailed"
	// ReasonEKSAddonFailed says an EKS add-on failed to be created or deleted.
	ReasonEKSAddonFailed = "EKSAddonFailed"
	// ReasonCertificateFailed says ACM will never issue an ACM certificate (FAILED,
	// VALIDATION_TIMED_OUT or REVOKED): a new certificate must be requested.
	ReasonCertificateFailed = "CertificateFailed"
	// ReasonCertificateExpired says an ACM certificate expired and was not renewed.
	ReasonCertificateExpired = "CertificateExpired"
	// ReasonHostedZoneUnusable says a hosted zone cannot hold what the object would write into
	// it: it does not exist, is private where public DNS is needed, or does not hold the name.
	ReasonHostedZoneUnusable = "HostedZoneUnusable"
	// ReasonSecretStringIgnored is the event reason for a secret whose spec gives its value both
	// inline and from a Kubernetes Secret: the Kubernetes Secret wins.
	ReasonSecretStringIgnored = "SecretStringIgnored"
	// ReasonScheduledForDeletion says an AWS resource of the name the spec gives awaits its
	// deletion and belongs to no earlier object of this one's name, so it is not restored.
	ReasonScheduledForDeletion = "ScheduledForDeletion"
	// ReasonRepositoryNotEmpty says an ECR repository holds images and forceDelete is not set.
	ReasonRepositoryNotEmpty = "RepositoryNotEmpty"
	// ReasonClusterNotEmpty says an ECS cluster still has active services or running tasks, so
	// it cannot be deleted yet.
	ReasonClusterNotEmpty = "ClusterNotEmpty"
	// ReasonHostedZoneNotEmpty says a Route 53 hosted zone being deleted still holds record
	// sets other than its apex SOA and NS, which the operator does not delete unless it owns them.
	ReasonHostedZoneNotEmpty = "HostedZoneNotEmpty"
	// ReasonRecordSetNotOwned says a Route 53 record set of the spec's name, type and set
	// identifier exists without the object's ownership marker (a TXT record), or, for an ACM
	// certificate's validation record, with another value than ACM's, so the operator does not
	// overwrite it.
	ReasonRecordSetNotOwned = "RecordSetNotOwned"
	// ReasonAwaitingAcceptance says a VPC peering connection waits for the owner of the peer
	// VPC, another account the operator cannot act for, to accept it; the message names the
	// account.
	ReasonAwaitingAcceptance = "AwaitingAcceptance"
	// ReasonPeeringFailed says AWS could not make a VPC peering connection (the peer VPC does
	// not exist in the peer account, or the two VPCs' CIDR blocks overlap), or it was rejected
	// or expired.
	ReasonPeeringFailed = "PeeringFailed"
)

// Reasons the administrator's IAM guardrails (package guardrails) give for refusing a spec
// before any AWS call; each message names the rule and the operator flag that sets it.
const (
	// ReasonRoleNameNotAllowed says a role's name or path is outside the prefix the
	// administrator gives the namespace's roles.
	ReasonRoleNameNotAllowed = "RoleNameNotAllowed"
	// ReasonPermissionsBoundaryRequired says a role names a permissions boundary other than the
	// one every role of the namespace carries.
	ReasonPermissionsBoundaryRequired = "PermissionsBoundaryRequired"
	// ReasonTrustPrincipalNotAllowed says a role's trust policy lets a principal the
	// administrator does not allow the namespace (another account, anyone) assume it.
	ReasonTrustPrincipalNotAllowed = "TrustPrincipalNotAllowed"
	// ReasonManagedPolicyDenied says a role attaches a managed policy the administrator denies
	// (AdministratorAccess and its equivalents by default).
	ReasonManagedPolicyDenied = "ManagedPolicyDenied"
	// ReasonInlinePolicyDenied says a role's inline policy allows "*", "iam:*", lifting a
	// permissions boundary, or an escalation action on every resource.
	ReasonInlinePolicyDenied = "InlinePolicyDenied"
	// ReasonRoleNotPassable says a field that passes a role to a service names a role the
	// namespace may not pass.
	ReasonRoleNotPassable = "RoleNotPassable"
	// ReasonPolicyDocumentDenied says a customer managed policy (IAMPolicy) allows what the
	// inline policy rules refuse: "*", "iam:*", NotAction, lifting a permissions boundary, or an
	// escalation action on every resource.
	ReasonPolicyDocumentDenied = "PolicyDocumentDenied"
	// ReasonDeleteConflict says IAM refuses to delete an entity that others still use: a
	// managed policy attached to a role, user or group. The deletion waits until it is free.
	ReasonDeleteConflict = "DeleteConflict"
)
