package v1alpha1

const (
	// AnnotationExternalName records the AWS identifier of a managed resource. It is written
	// immediately after the resource is created, so a crash before the status write cannot lead
	// to a second resource. Setting it by hand adopts an existing AWS resource.
	AnnotationExternalName = Group + "/external-name"

	// AnnotationCreatePending records when a create call was last started and not yet
	// confirmed. While it is recent, a resource that AWS does not show yet is waited for
	// rather than created again.
	AnnotationCreatePending = Group + "/create-pending"

	// AnnotationPaused stops all reconciliation of the object while its value is "true".
	AnnotationPaused = Group + "/paused"

	// AnnotationResync requests an immediate reconcile whenever its value changes, for example
	// `kubectl annotate --overwrite vpc/x aws-infra-operator.runner.codes/resync=$(date +%s)`.
	AnnotationResync = Group + "/resync"

	// Finalizer is held by every managed object until its AWS resource is handled.
	Finalizer = Group + "/finalizer"

	// TagOwnerUID, TagOwnerNamespace and TagOwnerName tag every created AWS resource with the
	// Kubernetes object that owns it.
	TagOwnerUID = Group + "/owner-uid"
	// TagOwnerNamespace is the ownership tag holding the owner's namespace.
	TagOwnerNamespace = Group + "/owner-namespace"
	// TagOwnerName is the ownership tag holding the owner's name.
	TagOwnerName = Group + "/owner-name"
	// TagOwnerKind is the ownership tag holding the owner's kind.
	TagOwnerKind = Group + "/owner-kind"
	// TagInstallID is the ownership tag holding the identity of the operator install that
	// created the resource (the --install-id flag, by default the kube-system namespace's
	// UID), so that two installs, such as two clusters restored from one backup, never both
	// manage one resource.
	TagInstallID = Group + "/install-id"

	// AnnotationApprovePlan approves, on an object with changePolicy Manual, the plan of
	// changes whose hash it holds (status.plan.hash): the operator applies that plan, and
	// only that one.
	AnnotationApprovePlan = Group + "/approve-plan"

	// AnnotationTakeover, set to "true", lets an object adopt an AWS resource whose ownership
	// tags name another object or another install. Without it such an adoption is refused with
	// OwnedByAnother.
	AnnotationTakeover = Group + "/takeover"

	// FinalizerInUsePrefix prefixes the finalizers an AWSProvider or ClusterAWSProvider
	// carries while managed objects of a family use it: "in-use.aws-infra-operator.runner.codes/<family>".
	FinalizerInUsePrefix = "in-use." + Group + "/"
)
