package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// EKSPodIdentityAssociationSpec is the desired state of a Pod Identity association: the pods of
// a cluster that run as a Kubernetes service account get the credentials of an IAM role, which
// the EKS Pod Identity agent (the eks-pod-identity-agent add-on) hands them. The role's trust
// policy must let the service principal pods.eks.amazonaws.com call sts:AssumeRole and
// sts:TagSession.
//
// Tenancy: the association passes the role to EKS, so the role goes through the pass-role rule
// (--passable-roles: the namespace's own IAMRoles' roles, and those the administrator allows;
// RoleNotPassable otherwise), and the cluster must be the namespace's own, as for an
// EKSAccessEntry (ForeignWriteNotAllowed for a clusterName no object of the namespace made).
// +kubebuilder:validation:XValidation:rule="[has(self.clusterRef), has(self.clusterName)].filter(x, x).size() == 1",message="set exactly one of clusterRef and clusterName"
// +kubebuilder:validation:XValidation:rule="[has(self.roleRef), has(self.roleARN)].filter(x, x).size() == 1",message="set exactly one of roleRef and roleARN"
// +kubebuilder:validation:XValidation:rule="has(self.clusterRef) == has(oldSelf.clusterRef)",message="the cluster of an association cannot change; create a new EKSPodIdentityAssociation"
type EKSPodIdentityAssociationSpec struct {
	shared.ManagedSpec `json:",inline"`

	// ClusterRef names the EKSCluster object in this namespace whose cluster the association
	// is in; the association waits until it is Ready. It cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="clusterRef cannot change; create a new EKSPodIdentityAssociation"
	ClusterRef *shared.Reference `json:"clusterRef,omitempty"`

	// ClusterName is the name of a cluster made outside this namespace's EKSCluster objects.
	// The operator writes into it only when an object of this namespace made it, or when the
	// administrator allows the namespace to write into resources it does not own
	// (ForeignWriteNotAllowed otherwise). It cannot change.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9A-Za-z][A-Za-z0-9_-]*$`
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="clusterName cannot change; create a new EKSPodIdentityAssociation"
	ClusterName string `json:"clusterName,omitempty"`

	// Namespace is the Kubernetes namespace, in the EKS cluster, of the service account. It
	// cannot change.
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="namespace cannot change; create a new EKSPodIdentityAssociation"
	Namespace string `json:"namespace"`

	// ServiceAccount is the name of the Kubernetes service account whose pods get the role. A
	// service account has one association. It cannot change.
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="serviceAccount cannot change; create a new EKSPodIdentityAssociation"
	ServiceAccount string `json:"serviceAccount"`

	// RoleRef names the IAMRole object (security family) in this namespace whose role the pods
	// get; the association waits until it is Ready.
	// +optional
	RoleRef *shared.Reference `json:"roleRef,omitempty"`

	// RoleARN is the ARN of the IAM role the pods get, for a role made outside this namespace's
	// IAMRole objects; it must be passable (--passable-roles).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:iam::[0-9]{12}:role/[\w+=,.@/-]+$`
	// +kubebuilder:validation:MaxLength=2048
	RoleARN string `json:"roleARN,omitempty"`
}

// EKSPodIdentityAssociationStatus is the observed state of a Pod Identity association.
type EKSPodIdentityAssociationStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ClusterName is the name of the association's cluster.
	// +optional
	ClusterName string `json:"clusterName,omitempty"`

	// AssociationID is the association's identifier in AWS.
	// +optional
	AssociationID string `json:"associationID,omitempty" output:""`

	// AssociationARN is the association's ARN.
	// +optional
	AssociationARN string `json:"associationARN,omitempty" output:""`

	// RoleARN is the ARN of the role the pods get.
	// +optional
	RoleARN string `json:"roleARN,omitempty"`
}

// EKSPodIdentityAssociation gives the pods of an EKS cluster that run as one Kubernetes service
// account the credentials of an IAM role (EKS Pod Identity).
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-compute}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="CLUSTER",type=string,JSONPath=`.status.clusterName`
// +kubebuilder:printcolumn:name="ID",type=string,JSONPath=`.status.associationID`
// +kubebuilder:printcolumn:name="ROLE",type=string,JSONPath=`.status.roleARN`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type EKSPodIdentityAssociation struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EKSPodIdentityAssociationSpec   `json:"spec"`
	Status EKSPodIdentityAssociationStatus `json:"status,omitempty"`
}

// EKSPodIdentityAssociationList is a list of EKSPodIdentityAssociations.
// +kubebuilder:object:root=true
type EKSPodIdentityAssociationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EKSPodIdentityAssociation `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (a *EKSPodIdentityAssociation) GetManagedSpec() *shared.ManagedSpec { return &a.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (a *EKSPodIdentityAssociation) GetManagedStatus() *shared.ManagedStatus {
	return &a.Status.ManagedStatus
}
