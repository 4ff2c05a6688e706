package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ALBSpec is the desired state of an Application Load Balancer (layer 7: HTTP and HTTPS),
// its listeners and its target groups.
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, l.protocol in ['HTTP', 'HTTPS'])",message="the listeners of an ALB use the protocols HTTP and HTTPS"
// +kubebuilder:validation:XValidation:rule="!has(self.targetGroups) || self.targetGroups.all(g, !has(g.protocol) || g.protocol in ['HTTP', 'HTTPS'])",message="the target groups of an ALB use the protocols HTTP and HTTPS"
// +kubebuilder:validation:XValidation:rule="!has(self.targetGroups) || self.targetGroups.all(g, g.targetType in ['instance', 'ip', 'lambda'])",message="the target groups of an ALB have the target types instance, ip and lambda"
// +kubebuilder:validation:XValidation:rule="!(has(self.securityGroupIDs) && has(self.securityGroupRefs))",message="set at most one of securityGroupIDs and securityGroupRefs"
type ALBSpec struct {
	LoadBalancerSpec `json:",inline"`

	// SecurityGroupIDs are the security groups of the load balancer, for groups made outside
	// this cluster. With neither these nor securityGroupRefs, AWS gives it its VPC's default
	// group.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// SecurityGroupRefs name SecurityGroup objects in this namespace; the load balancer waits
	// until they are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`
}

// ALBStatus is the observed state of an ALB.
type ALBStatus struct {
	LoadBalancerStatus `json:",inline"`
}

// ALB is an Application Load Balancer (layer 7: HTTP and HTTPS) with its listeners and target
// groups. Its name and scheme cannot change once it exists.
// +kubebuilder:validation:XValidation:rule="has(self.spec.name) || (size(self.metadata.name) <= 32 && self.metadata.name.matches('^[a-z0-9]([a-z0-9-]*[a-z0-9])?$') && !self.metadata.name.startsWith('internal-'))",message="the object's name is not a valid load balancer name (1 to 32 letters, digits and hyphens, not starting with internal-); set spec.name"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.arn) || (has(self.spec.name) == has(oldSelf.spec.name) && (!has(self.spec.name) || self.spec.name == oldSelf.spec.name))",message="name cannot change once the load balancer exists; create a new ALB"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=alb,categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="DNS",type=string,JSONPath=`.status.dnsName`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ALB struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ALBSpec   `json:"spec"`
	Status ALBStatus `json:"status,omitempty"`
}

// ALBList is a list of ALBs.
// +kubebuilder:object:root=true
type ALBList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ALB `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (b *ALB) GetManagedSpec() *shared.ManagedSpec { return &b.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (b *ALB) GetManagedStatus() *shared.ManagedStatus { return &b.Status.ManagedStatus }
