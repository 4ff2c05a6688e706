package v1alpha1

// Reference names another infra-operator object in the same namespace whose AWS identifier a
// field takes, for example a Subnet's vpcRef. The referring object waits, with a condition that
// names the reference, until the referenced object is Ready.
type Reference struct {
	// Name of the referenced object.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// Selector selects infra-operator objects of one kind in the same namespace by their labels,
// for list fields such as a load balancer's subnets. Every selected object must be Ready.
type Selector struct {
	// MatchLabels are the labels the selected objects carry.
	// +kubebuilder:validation:MinProperties=1
	MatchLabels map[string]string `json:"matchLabels"`
}
