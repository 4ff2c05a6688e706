package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// NLBSpec is the desired state of a Network Load Balancer (layer 4: TCP, UDP and TLS), its
// listeners and its target groups.
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, l.protocol in ['TCP', 'TLS', 'UDP', 'TCP_UDP'])",message="the listeners of an NLB use the protocols TCP, TLS, UDP and TCP_UDP"
// +kubebuilder:validation:XValidation:rule="!has(self.targetGroups) || self.targetGroups.all(g, !has(g.protocol) || g.protocol in ['TCP', 'TLS', 'UDP', 'TCP_UDP'])",message="the target groups of an NLB use the protocols TCP, TLS, UDP and TCP_UDP"
// +kubebuilder:validation:XValidation:rule="!has(self.targetGroups) || self.targetGroups.all(g, g.targetType in ['instance', 'ip', 'alb'])",message="the target groups of an NLB have the target types instance, ip and alb"
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, has(l.defaultAction.forward))",message="a Network Load Balancer's listeners forward to a target group"
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, !has(l.rules))",message="listener rules are for the HTTP and HTTPS listeners of an ALB: an NLB's listeners forward every connection with their default action"
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, !has(l.defaultAction.forward) || !has(l.defaultAction.forward.targetGroups))",message="an NLB's listeners forward to one target group (targetGroup or targetGroupARN), not weighted targetGroups"
type NLBSpec struct {
	LoadBalancerSpec `json:",inline"`
}

// NLBStatus is the observed state of an NLB.
type NLBStatus struct {
	LoadBalancerStatus `json:",inline"`
}

// NLB is a Network Load Balancer (layer 4: TCP, UDP and TLS) with its listeners and target
// groups. Its name and scheme cannot change once it exists.
// +kubebuilder:validation:XValidation:rule="has(self.spec.name) || (size(self.metadata.name) <= 32 && self.metadata.name.matches('^[a-z0-9]([a-z0-9-]*[a-z0-9])?$') && !self.metadata.name.startsWith('internal-'))",message="the object's name is not a valid load balancer name (1 to 32 letters, digits and hyphens, not starting with internal-); set spec.name"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.arn) || (has(self.spec.name) == has(oldSelf.spec.name) && (!has(self.spec.name) || self.spec.name == oldSelf.spec.name))",message="name cannot change once the load balancer exists; create a new NLB"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=nlb,categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="DNS",type=string,JSONPath=`.status.dnsName`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type NLB struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   NLBSpec   `json:"spec"`
	Status NLBStatus `json:"status,omitempty"`
}

// NLBList is a list of NLBs.
// +kubebuilder:object:root=true
type NLBList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []NLB `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (b *NLB) GetManagedSpec() *shared.ManagedSpec { return &b.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (b *NLB) GetManagedStatus() *shared.ManagedStatus { return &b.Status.ManagedStatus }
