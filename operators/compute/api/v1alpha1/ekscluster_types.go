package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// EKSClusterSpec is the desired state of an EKS cluster, its managed node groups and its
// add-ons.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.encryption) || (has(self.encryption) && self.encryption.kmsKeyARN == oldSelf.encryption.kmsKeyARN)",message="encryption cannot be removed or changed once set: EKS encrypts a cluster's secrets with one key for the cluster's life; create a new EKSCluster to use another key"
// +kubebuilder:validation:XValidation:rule="(has(self.accessConfig) && has(self.accessConfig.bootstrapClusterCreatorAdminPermissions) ? self.accessConfig.bootstrapClusterCreatorAdminPermissions : true) == (has(oldSelf.accessConfig) && has(oldSelf.accessConfig.bootstrapClusterCreatorAdminPermissions) ? oldSelf.accessConfig.bootstrapClusterCreatorAdminPermissions : true)",message="accessConfig.bootstrapClusterCreatorAdminPermissions is used only when the cluster is created (unset is true) and cannot change: to take the creator's administrator rights away, delete the creator's access entry (or manage it with an EKSAccessEntry); to create the cluster without them, create a new EKSCluster"
type EKSClusterSpec struct {
	shared.ManagedSpec `json:",inline"`

	// ClusterName is the cluster's name in AWS, unique in the account and region. It cannot
	// change.
	// +kubebuilder:validation:Pattern=`^[0-9A-Za-z][A-Za-z0-9_-]*$`
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="clusterName cannot change; create a new EKSCluster"
	ClusterName string `json:"clusterName"`

	// Version is the Kubernetes version of the control plane, for example "1.31". It goes up
	// one minor version at a time, as EKS upgrades clusters, and never down; the managed node
	// groups follow the control plane after each step.
	// +kubebuilder:validation:Pattern=`^1\.[0-9]+$`
	// +kubebuilder:validation:MaxLength=8
	// +kubebuilder:validation:XValidation:rule="self == oldSelf || (self.startsWith('1.') && oldSelf.startsWith('1.') && int(self.substring(2)) == int(oldSelf.substring(2)) + 1)",message="version goes up one minor version at a time (for example 1.31 to 1.32) and never down, as EKS upgrades clusters: set the next minor version, wait until the cluster is Ready, then set the one after"
	Version string `json:"version"`

	// RoleARN is the ARN of the IAM role the control plane uses to manage AWS resources for the
	// cluster. It cannot change.
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:iam::[0-9]{12}:role/[\w+=,.@/-]+$`
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="roleARN cannot change: EKS keeps a cluster's role for its life; create a new EKSCluster"
	RoleARN string `json:"roleARN"`

	// ResourcesVPCConfig places the cluster in a VPC and sets who may reach its API server.
	ResourcesVPCConfig EKSVPCConfig `json:"resourcesVPCConfig"`

	// Logging lists the control plane log types sent to CloudWatch Logs; the others are off.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Enum=api;audit;authenticator;controllerManager;scheduler
	Logging []string `json:"logging,omitempty"`

	// Encryption encrypts the cluster's Kubernetes secrets with a KMS key. It can be added to
	// a cluster once, and never removed or changed.
	// +optional
	Encryption *EKSEncryption `json:"encryption,omitempty"`

	// AccessConfig says how IAM principals authenticate to the cluster's Kubernetes API: through
	// access entries (EKSAccessEntry), the aws-auth ConfigMap, or both.
	// +optional
	AccessConfig *EKSAccessConfig `json:"accessConfig,omitempty"`

	// NodeGroups are the cluster's managed node groups, managed as a set: those listed are
	// created and kept as listed, and those this object created and no longer lists are
	// deleted. Node groups made outside this object are left alone.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=30
	NodeGroups []EKSNodeGroup `json:"nodeGroups,omitempty"`

	// Addons are the cluster's EKS add-ons, managed as a set like the node groups.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=30
	Addons []EKSAddon `json:"addons,omitempty"`
}

// EKSVPCConfig is the VPC configuration of a cluster: its subnets and security groups, and
// the access to its API server endpoint.
// +kubebuilder:validation:XValidation:rule="has(self.subnetIDs) != (has(self.subnetRefs) || has(self.subnetSelector))",message="give the subnets as subnetIDs, or as subnetRefs and/or subnetSelector"
// +kubebuilder:validation:XValidation:rule="!has(self.subnetRefs) || has(self.subnetSelector) || self.subnetRefs.size() >= 2",message="a cluster needs subnets in at least two availability zones: give at least two subnets"
// +kubebuilder:validation:XValidation:rule="!(has(self.securityGroupIDs) && has(self.securityGroupRefs))",message="set at most one of securityGroupIDs and securityGroupRefs"
// +kubebuilder:validation:XValidation:rule="(!has(self.endpointPublicAccess) || self.endpointPublicAccess) || (has(self.endpointPrivateAccess) && self.endpointPrivateAccess)",message="the API server endpoint needs public or private access: endpointPublicAccess and endpointPrivateAccess cannot both be false"
type EKSVPCConfig struct {
	// SubnetIDs are the subnets of the cluster's network interfaces, in at least two
	// availability zones of one VPC, for subnets made outside this cluster.
	// +optional
	// +kubebuilder:validation:MinItems=2
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=64
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SubnetRefs name Subnet objects in this namespace; the cluster waits until they are
	// Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SubnetSelector selects Subnet objects in this namespace by label, with subnetRefs or
	// alone.
	// +optional
	SubnetSelector *shared.Selector `json:"subnetSelector,omitempty"`

	// SecurityGroupIDs are extra security groups of the cluster's network interfaces (EKS
	// makes the cluster security group itself), for groups made outside this cluster.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=64
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// SecurityGroupRefs name SecurityGroup objects in this namespace; the cluster waits until
	// they are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`

	// EndpointPublicAccess opens the API server endpoint to the internet (to
	// publicAccessCIDRs). Unset is true.
	// +optional
	// +kubebuilder:default=true
	EndpointPublicAccess *bool `json:"endpointPublicAccess,omitempty"`

	// EndpointPrivateAccess opens the API server endpoint to the VPC, so that nodes reach it
	// without leaving the VPC. Unset is false.
	// +optional
	// +kubebuilder:default=false
	EndpointPrivateAccess *bool `json:"endpointPrivateAccess,omitempty"`

	// PublicAccessCIDRs are the IPv4 blocks that may reach the public endpoint; unset is
	// 0.0.0.0/0, the whole internet.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=40
	// +kubebuilder:validation:items:MaxLength=18
	// +kubebuilder:validation:XValidation:rule="self.all(c, isCIDR(c) && cidr(c).ip().family() == 4)",message="publicAccessCIDRs must be IPv4 CIDR blocks such as 203.0.113.0/24"
	PublicAccessCIDRs []string `json:"publicAccessCIDRs,omitempty"`
}

// EKSAccessConfig is how IAM principals authenticate to a cluster's Kubernetes API.
// +kubebuilder:validation:XValidation:rule="!(has(self.authenticationMode) && self.authenticationMode == 'CONFIG_MAP' && has(self.bootstrapClusterCreatorAdminPermissions) && !self.bootstrapClusterCreatorAdminPermissions)",message="a CONFIG_MAP cluster needs bootstrapClusterCreatorAdminPermissions: its creator is its only administrator until the aws-auth ConfigMap names others"
type EKSAccessConfig struct {
	// AuthenticationMode is where the cluster looks up an IAM principal's Kubernetes identity:
	// API (access entries only, AWS's recommendation for new clusters), API_AND_CONFIG_MAP
	// (access entries, then the aws-auth ConfigMap) or CONFIG_MAP (the ConfigMap only, which
	// takes no access entries). Unset creates the cluster with API and then leaves the mode of
	// the cluster as it is, so that clusters made before this field existed are never switched
	// without being asked. EKS changes the mode only forward, CONFIG_MAP to API_AND_CONFIG_MAP to
	// API, never back.
	// +optional
	// +kubebuilder:validation:Enum=CONFIG_MAP;API_AND_CONFIG_MAP;API
	// +kubebuilder:validation:XValidation:rule="self == oldSelf || oldSelf == 'CONFIG_MAP' || (oldSelf == 'API_AND_CONFIG_MAP' && self == 'API')",message="authenticationMode goes only forward, CONFIG_MAP to API_AND_CONFIG_MAP to API, as EKS allows: set the current mode or a later one (going back takes a new EKSCluster)"
	AuthenticationMode string `json:"authenticationMode,omitempty"`

	// BootstrapClusterCreatorAdminPermissions gives the IAM principal that creates the cluster
	// (the provider's identity) an access entry with cluster administrator rights. It is used
	// only when the cluster is created; unset is true.
	// +optional
	BootstrapClusterCreatorAdminPermissions *bool `json:"bootstrapClusterCreatorAdminPermissions,omitempty"`
}

// EKSEncryption is the KMS key that encrypts a cluster's Kubernetes secrets.
type EKSEncryption struct {
	// KMSKeyARN is the ARN of the KMS key (a symmetric key in the cluster's region).
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:kms:[a-z0-9-]+:[0-9]{12}:(key|alias)/[A-Za-z0-9/_-]+$`
	// +kubebuilder:validation:MaxLength=2048
	KMSKeyARN string `json:"kmsKeyARN"`
}

// EKSNodeGroup is a managed node group: EC2 instances in an Auto Scaling group that EKS joins
// to the cluster. Its role, subnets, instance types, AMI type, capacity type and disk size
// are set when it is created; its scaling, labels and taints change in place.
// +kubebuilder:validation:XValidation:rule="self.nodeRoleARN == oldSelf.nodeRoleARN && has(self.subnetIDs) == has(oldSelf.subnetIDs) && (!has(self.subnetIDs) || self.subnetIDs == oldSelf.subnetIDs) && has(self.instanceTypes) == has(oldSelf.instanceTypes) && (!has(self.instanceTypes) || self.instanceTypes == oldSelf.instanceTypes) && has(self.amiType) == has(oldSelf.amiType) && (!has(self.amiType) || self.amiType == oldSelf.amiType) && has(self.capacityType) == has(oldSelf.capacityType) && (!has(self.capacityType) || self.capacityType == oldSelf.capacityType) && has(self.diskSize) == has(oldSelf.diskSize) && (!has(self.diskSize) || self.diskSize == oldSelf.diskSize)",message="nodeRoleARN, subnetIDs, instanceTypes, amiType, capacityType and diskSize of a node group are set when it is created: give the node group a new name to replace it (the old one is then deleted)"
type EKSNodeGroup struct {
	// Name is the node group's name in the cluster.
	// +kubebuilder:validation:Pattern=`^[0-9A-Za-z][A-Za-z0-9_-]*$`
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`

	// NodeRoleARN is the ARN of the IAM role of the nodes.
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:iam::[0-9]{12}:role/[\w+=,.@/-]+$`
	// +kubebuilder:validation:MaxLength=2048
	NodeRoleARN string `json:"nodeRoleARN"`

	// SubnetIDs are the subnets the nodes run in, in the cluster's VPC; unset is the
	// cluster's subnets.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=64
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// InstanceTypes are the EC2 instance types of the nodes; unset is t3.medium.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9-]+\.[a-z0-9-]+$`
	// +kubebuilder:validation:items:MaxLength=64
	InstanceTypes []string `json:"instanceTypes,omitempty"`

	// AMIType is the kind of image the nodes run; unset is AL2023_x86_64_STANDARD.
	// +optional
	// +kubebuilder:validation:Enum=AL2_x86_64;AL2_x86_64_GPU;AL2_ARM_64;BOTTLEROCKET_ARM_64;BOTTLEROCKET_x86_64;BOTTLEROCKET_ARM_64_FIPS;BOTTLEROCKET_x86_64_FIPS;BOTTLEROCKET_ARM_64_NVIDIA;BOTTLEROCKET_x86_64_NVIDIA;BOTTLEROCKET_ARM_64_NVIDIA_FIPS;BOTTLEROCKET_x86_64_NVIDIA_FIPS;WINDOWS_CORE_2019_x86_64;WINDOWS_FULL_2019_x86_64;WINDOWS_CORE_2022_x86_64;WINDOWS_FULL_2022_x86_64;WINDOWS_CORE_2025_x86_64;WINDOWS_FULL_2025_x86_64;AL2023_x86_64_STANDARD;AL2023_ARM_64_STANDARD;AL2023_x86_64_NEURON;AL2023_x86_64_NVIDIA;AL2023_ARM_64_NVIDIA
	AMIType string `json:"amiType,omitempty"`

	// CapacityType is ON_DEMAND (unset), SPOT or CAPACITY_BLOCK.
	// +optional
	// +kubebuilder:validation:Enum=ON_DEMAND;SPOT;CAPACITY_BLOCK
	CapacityType string `json:"capacityType,omitempty"`

	// DiskSize is the size in GiB of each node's root volume; unset is 20.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=16384
	DiskSize int32 `json:"diskSize,omitempty"`

	// Scaling is how many nodes the group has.
	Scaling EKSNodeGroupScaling `json:"scaling"`

	// Labels are the Kubernetes labels of the nodes.
	// +optional
	// +kubebuilder:validation:MaxProperties=50
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 317 && self[k].size() <= 63)",message="label keys are at most 317 characters (a 253-character prefix, a slash and 63 characters) and values at most 63"
	Labels map[string]string `json:"labels,omitempty"`

	// Taints are the Kubernetes taints of the nodes.
	// +optional
	// +kubebuilder:validation:MaxItems=50
	Taints []EKSTaint `json:"taints,omitempty"`
}

// EKSNodeGroupScaling is the size of a node group.
// +kubebuilder:validation:XValidation:rule="self.minSize <= self.desiredSize && self.desiredSize <= self.maxSize",message="scaling needs minSize <= desiredSize <= maxSize"
type EKSNodeGroupScaling struct {
	// MinSize is the fewest nodes the group scales in to.
	// +kubebuilder:validation:Minimum=0
	MinSize int32 `json:"minSize"`

	// MaxSize is the most nodes the group scales out to.
	// +kubebuilder:validation:Minimum=1
	MaxSize int32 `json:"maxSize"`

	// DesiredSize is how many nodes the group runs. The operator restores it when it changes
	// outside (a cluster autoscaler would fight the operator: leave such groups out of the
	// spec).
	// +kubebuilder:validation:Minimum=0
	DesiredSize int32 `json:"desiredSize"`
}

// EKSTaint is a Kubernetes taint of a node group's nodes.
type EKSTaint struct {
	// Key is the taint's key.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Key string `json:"key"`

	// Value is the taint's value.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Value string `json:"value,omitempty"`

	// Effect is NO_SCHEDULE, NO_EXECUTE or PREFER_NO_SCHEDULE.
	// +kubebuilder:validation:Enum=NO_SCHEDULE;NO_EXECUTE;PREFER_NO_SCHEDULE
	Effect string `json:"effect"`
}

// EKSAddon is an EKS add-on of the cluster, such as vpc-cni, coredns or kube-proxy.
type EKSAddon struct {
	// Name is the add-on's name, for example vpc-cni.
	// +kubebuilder:validation:Pattern=`^[0-9A-Za-z][A-Za-z0-9_.-]*$`
	// +kubebuilder:validation:MaxLength=100
	Name string `json:"name"`

	// Version is the add-on's version, for example v1.19.5-eksbuild.3; unset installs the
	// default version for the cluster's Kubernetes version and then leaves the version alone.
	// +optional
	// +kubebuilder:validation:MaxLength=100
	Version string `json:"version,omitempty"`

	// ServiceAccountRoleARN is the IAM role the add-on's service account assumes (IRSA).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:iam::[0-9]{12}:role/[\w+=,.@/-]+$`
	// +kubebuilder:validation:MaxLength=2048
	ServiceAccountRoleARN string `json:"serviceAccountRoleARN,omitempty"`

	// ResolveConflicts says what EKS does with configuration changed in the cluster by hand:
	// OVERWRITE replaces it, NONE fails the change, PRESERVE keeps it (on updates; a creation
	// with PRESERVE is made with NONE). Unset is NONE.
	// +optional
	// +kubebuilder:validation:Enum=OVERWRITE;NONE;PRESERVE
	ResolveConflicts string `json:"resolveConflicts,omitempty"`
}

// EKSClusterStatus is the observed state of an EKS cluster.
type EKSClusterStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ClusterName is the cluster's name.
	// +optional
	ClusterName string `json:"clusterName,omitempty" output:""`

	// ARN is the cluster's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// Status is CREATING, ACTIVE, UPDATING, DELETING or FAILED.
	// +optional
	Status string `json:"status,omitempty"`

	// Version is the Kubernetes version the control plane runs.
	// +optional
	Version string `json:"version,omitempty"`

	// PlatformVersion is the EKS platform version of the control plane, for example eks.29.
	// +optional
	PlatformVersion string `json:"platformVersion,omitempty"`

	// Endpoint is the URL of the cluster's API server, once the cluster is created.
	// +optional
	Endpoint string `json:"endpoint,omitempty" output:""`

	// CertificateAuthorityData is the base64-encoded certificate of the cluster's certificate
	// authority, which clients use to trust the API server (a public certificate, not a
	// credential).
	// +optional
	CertificateAuthorityData string `json:"certificateAuthorityData,omitempty" output:""`

	// OIDCIssuer is the URL of the cluster's OpenID Connect issuer, for IAM roles for service
	// accounts.
	// +optional
	OIDCIssuer string `json:"oidcIssuer,omitempty" output:""`

	// ClusterSecurityGroupID is the security group EKS made for the control plane and the
	// managed nodes.
	// +optional
	ClusterSecurityGroupID string `json:"clusterSecurityGroupID,omitempty" output:""`

	// VPCID is the cluster's VPC.
	// +optional
	VPCID string `json:"vpcID,omitempty" output:""`

	// AuthenticationMode is the cluster's authentication mode: CONFIG_MAP, API_AND_CONFIG_MAP
	// or API.
	// +optional
	AuthenticationMode string `json:"authenticationMode,omitempty"`

	// NodeGroups are the cluster's node groups that this object manages, as EKS reports them.
	// +optional
	// +listType=map
	// +listMapKey=name
	NodeGroups []EKSNodeGroupStatus `json:"nodeGroups,omitempty"`

	// Addons are the cluster's add-ons that this object manages, as EKS reports them.
	// +optional
	// +listType=map
	// +listMapKey=name
	Addons []EKSAddonStatus `json:"addons,omitempty"`
}

// EKSNodeGroupStatus is the observed state of one managed node group.
type EKSNodeGroupStatus struct {
	// Name is the node group's name.
	Name string `json:"name"`

	// Status is CREATING, ACTIVE, UPDATING, DELETING, CREATE_FAILED, DELETE_FAILED or
	// DEGRADED.
	// +optional
	Status string `json:"status,omitempty"`

	// DesiredSize is how many nodes the group runs.
	// +optional
	DesiredSize int32 `json:"desiredSize,omitempty"`

	// Version is the Kubernetes version of the nodes.
	// +optional
	Version string `json:"version,omitempty"`
}

// EKSAddonStatus is the observed state of one add-on.
type EKSAddonStatus struct {
	// Name is the add-on's name.
	Name string `json:"name"`

	// Status is CREATING, ACTIVE, UPDATING, DELETING, CREATE_FAILED, UPDATE_FAILED,
	// DELETE_FAILED or DEGRADED.
	// +optional
	Status string `json:"status,omitempty"`

	// Version is the add-on's version.
	// +optional
	Version string `json:"version,omitempty"`
}

// EKSCluster is an Amazon EKS cluster with its managed node groups and add-ons. Creating a
// cluster takes minutes in AWS: the object waits, Ready once the cluster, every node group and
// every add-on are ACTIVE and as the spec says.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=eks,categories={aws,aws-compute}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="CLUSTER",type=string,JSONPath=`.status.clusterName`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.status`
// +kubebuilder:printcolumn:name="VERSION",type=string,JSONPath=`.status.version`
// +kubebuilder:printcolumn:name="ENDPOINT",type=string,JSONPath=`.status.endpoint`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type EKSCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EKSClusterSpec   `json:"spec"`
	Status EKSClusterStatus `json:"status,omitempty"`
}

// EKSClusterList is a list of EKSClusters.
// +kubebuilder:object:root=true
type EKSClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EKSCluster `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (c *EKSCluster) GetManagedSpec() *shared.ManagedSpec { return &c.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (c *EKSCluster) GetManagedStatus() *shared.ManagedStatus { return &c.Status.ManagedStatus }
