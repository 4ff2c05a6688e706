package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// EKSAccessEntrySpec is the desired state of an access entry: an IAM principal's Kubernetes
// identity (username and groups) in an EKS cluster, and the EKS access policies that authorize
// it. The cluster's authentication mode must be API or API_AND_CONFIG_MAP.
//
// Tenancy: an access entry grants an IAM principal Kubernetes rights on a cluster, so the
// guardrail is the cluster's ownership. The cluster must be the namespace's own: a clusterRef
// names an EKSCluster of the namespace (one that only observes its cluster makes the entry wait,
// ReferenceObserveOnly), and a clusterName naming a cluster no object of the namespace made is
// refused (ForeignWriteNotAllowed) before anything is written, whether the entry would be
// created or adopted, unless the administrator lets the namespace write into resources it does
// not own (--foreign-write-namespaces). The principal gets no rule of its own: an access entry
// gives it no AWS identity and no AWS permission (it is not a trust policy, and nothing is
// passed to a service), only rights inside a cluster the namespace owns and administers
// already, as its own RBAC objects there would. The IAM rules for trust
// (--iam-trusted-accounts) and passed roles (--passable-roles) govern who may become a role and
// what a service may act as, which an access entry does not change.
// +kubebuilder:validation:XValidation:rule="[has(self.clusterRef), has(self.clusterName)].filter(x, x).size() == 1",message="set exactly one of clusterRef and clusterName"
// +kubebuilder:validation:XValidation:rule="[has(self.principalRef), has(self.principalARN)].filter(x, x).size() == 1",message="set exactly one of principalRef and principalARN"
// +kubebuilder:validation:XValidation:rule="has(self.clusterRef) == has(oldSelf.clusterRef) && has(self.principalRef) == has(oldSelf.principalRef)",message="the cluster and the principal of an access entry cannot change; create a new EKSAccessEntry"
// +kubebuilder:validation:XValidation:rule="!has(self.type) || self.type == 'STANDARD' || (!has(self.kubernetesGroups) && !has(self.username) && !has(self.accessPolicies))",message="only a STANDARD access entry takes kubernetesGroups, username and accessPolicies: EKS gives node and Fargate entries their identity itself"
type EKSAccessEntrySpec struct {
	shared.ManagedSpec `json:",inline"`

	// ClusterRef names the EKSCluster object in this namespace whose cluster the entry is
	// in; the entry waits until it is Ready. It cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="clusterRef cannot change; create a new EKSAccessEntry"
	ClusterRef *shared.Reference `json:"clusterRef,omitempty"`

	// ClusterName is the name of a cluster made outside this namespace's EKSCluster objects.
	// The operator writes into it only when an object of this namespace made it, or when the
	// administrator allows the namespace to write into resources it does not own
	// (ForeignWriteNotAllowed otherwise). It cannot change.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9A-Za-z][A-Za-z0-9_-]*$`
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="clusterName cannot change; create a new EKSAccessEntry"
	ClusterName string `json:"clusterName,omitempty"`

	// PrincipalRef names the IAMRole object (security family) in this namespace whose role the
	// entry is for; the entry waits until it is Ready. It cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="principalRef cannot change; create a new EKSAccessEntry"
	PrincipalRef *shared.Reference `json:"principalRef,omitempty"`

	// PrincipalARN is the ARN of the IAM role or user the entry is for. A cluster has one
	// entry per principal. It cannot change.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:iam::[0-9]{12}:(role|user)/[\w+=,.@/-]+$`
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="principalARN cannot change; create a new EKSAccessEntry"
	PrincipalARN string `json:"principalARN,omitempty"`

	// Type is STANDARD (unset), for people and applications, or the type of the nodes whose
	// role the principal is: EC2 (EKS Auto Mode), EC2_LINUX, EC2_WINDOWS, FARGATE_LINUX,
	// HYBRID_LINUX or HYPERPOD_LINUX. It cannot change.
	// +optional
	// +kubebuilder:default=STANDARD
	// +kubebuilder:validation:Enum=STANDARD;EC2;EC2_LINUX;EC2_WINDOWS;FARGATE_LINUX;HYBRID_LINUX;HYPERPOD_LINUX
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="type cannot change; create a new EKSAccessEntry"
	Type string `json:"type,omitempty"`

	// KubernetesGroups are the Kubernetes groups the principal belongs to, which RoleBindings
	// and ClusterRoleBindings in the cluster name as subjects.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="self.all(g, !g.startsWith('system:'))",message="kubernetesGroups cannot start with system:, which Kubernetes reserves"
	KubernetesGroups []string `json:"kubernetesGroups,omitempty"`

	// Username is the principal's Kubernetes username; unset is the one EKS chooses (the
	// principal's ARN, with the session name for a role) and then leaves as it is.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="!['system:', 'eks:', 'aws:', 'amazon:', 'iam:'].exists(p, self.startsWith(p))",message="username cannot start with system:, eks:, aws:, amazon: or iam:, which EKS reserves"
	Username string `json:"username,omitempty"`

	// AccessPolicies are the EKS access policies associated with the entry, managed as a set:
	// those listed are associated with their scope, and the others are disassociated.
	// +optional
	// +listType=map
	// +listMapKey=policy
	// +kubebuilder:validation:MaxItems=20
	AccessPolicies []EKSAccessPolicy `json:"accessPolicies,omitempty"`
}

// EKSAccessPolicy is an EKS access policy associated with an access entry, and where in the
// cluster it applies.
type EKSAccessPolicy struct {
	// Policy is the access policy: its name, for example AmazonEKSClusterAdminPolicy,
	// AmazonEKSAdminPolicy, AmazonEKSEditPolicy or AmazonEKSViewPolicy, or its ARN
	// (arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy).
	// +kubebuilder:validation:Pattern=`^(AmazonEKS[A-Za-z0-9]+|arn:aws[a-zA-Z-]*:eks::aws:cluster-access-policy/AmazonEKS[A-Za-z0-9]+)$`
	// +kubebuilder:validation:MaxLength=256
	Policy string `json:"policy"`

	// AccessScope is where the policy applies: the whole cluster, or some namespaces.
	AccessScope EKSAccessScope `json:"accessScope"`
}

// EKSAccessScope is the part of a cluster an access policy applies to.
// +kubebuilder:validation:XValidation:rule="self.type == 'namespace' ? has(self.namespaces) && self.namespaces.size() > 0 : !has(self.namespaces)",message="an accessScope of type namespace lists its namespaces, and one of type cluster lists none"
type EKSAccessScope struct {
	// Type is cluster (every namespace and the cluster's own resources) or namespace (the
	// namespaces listed).
	// +kubebuilder:validation:Enum=cluster;namespace
	Type string `json:"type"`

	// Namespaces are the Kubernetes namespaces of a scope of type namespace; a name may end
	// with * to match every namespace it starts.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?\*?$|^[a-z0-9-]*\*$`
	// +kubebuilder:validation:items:MaxLength=63
	Namespaces []string `json:"namespaces,omitempty"`
}

// EKSAccessEntryStatus is the observed state of an access entry.
type EKSAccessEntryStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ClusterName is the name of the entry's cluster.
	// +optional
	ClusterName string `json:"clusterName,omitempty"`

	// AccessEntryARN is the entry's ARN.
	// +optional
	AccessEntryARN string `json:"accessEntryARN,omitempty" output:""`

	// PrincipalARN is the ARN of the entry's IAM principal.
	// +optional
	PrincipalARN string `json:"principalARN,omitempty" output:""`

	// Username is the principal's Kubernetes username.
	// +optional
	Username string `json:"username,omitempty"`

	// KubernetesGroups are the principal's Kubernetes groups.
	// +optional
	KubernetesGroups []string `json:"kubernetesGroups,omitempty"`

	// AccessPolicies are the ARNs of the access policies associated with the entry.
	// +optional
	AccessPolicies []string `json:"accessPolicies,omitempty"`
}

// EKSAccessEntry gives an IAM principal a Kubernetes identity in an EKS cluster, and EKS
// access policies that authorize it there.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-compute}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="CLUSTER",type=string,JSONPath=`.status.clusterName`
// +kubebuilder:printcolumn:name="PRINCIPAL",type=string,JSONPath=`.status.principalARN`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type EKSAccessEntry struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EKSAccessEntrySpec   `json:"spec"`
	Status EKSAccessEntryStatus `json:"status,omitempty"`
}

// EKSAccessEntryList is a list of EKSAccessEntries.
// +kubebuilder:object:root=true
type EKSAccessEntryList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EKSAccessEntry `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (e *EKSAccessEntry) GetManagedSpec() *shared.ManagedSpec { return &e.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (e *EKSAccessEntry) GetManagedStatus() *shared.ManagedStatus { return &e.Status.ManagedStatus }
