package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// EC2InstanceSpec is the desired state of an EC2 instance.
// +kubebuilder:validation:XValidation:rule="!(has(self.subnetID) && has(self.subnetRef))",message="set at most one of subnetID and subnetRef"
// +kubebuilder:validation:XValidation:rule="!(has(self.securityGroupIDs) && has(self.securityGroupRefs))",message="set at most one of securityGroupIDs and securityGroupRefs"
// +kubebuilder:validation:XValidation:rule="!has(self.instanceName) || !has(self.tags) || !('Name' in self.tags) || self.tags['Name'] == self.instanceName",message="tags.Name differs from instanceName, which is the instance's Name tag; remove tags.Name or make them equal"
type EC2InstanceSpec struct {
	shared.ManagedSpec `json:",inline"`

	// InstanceName is the instance's Name tag, shown in the EC2 console.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	InstanceName string `json:"instanceName,omitempty"`

	// InstanceType is the instance type, for example t3.medium. Changing it needs the
	// instance stopped: see allowRestart.
	// +kubebuilder:validation:Pattern=`^[a-z0-9-]+\.[a-z0-9-]+$`
	// +kubebuilder:validation:MaxLength=64
	InstanceType string `json:"instanceType"`

	// ImageID is the AMI the instance boots from. It cannot change: a new image means a new
	// instance.
	// +kubebuilder:validation:Pattern=`^ami-[0-9a-z]+$`
	// +kubebuilder:validation:MaxLength=64
	ImageID string `json:"imageID"`

	// SubnetID is the subnet to launch the instance in, for a subnet made outside this
	// cluster. With neither this nor subnetRef, AWS picks a subnet of the default VPC.
	// +optional
	// +kubebuilder:validation:Pattern=`^subnet-[0-9a-z-]+$`
	// +kubebuilder:validation:MaxLength=64
	SubnetID string `json:"subnetID,omitempty"`

	// SubnetRef names the Subnet object in this namespace to launch the instance in; the
	// instance waits until it is Ready.
	// +optional
	SubnetRef *shared.Reference `json:"subnetRef,omitempty"`

	// SecurityGroupIDs are the instance's security groups, for groups made outside this
	// cluster. They can change while the instance runs. With neither these nor
	// securityGroupRefs, AWS gives the instance its VPC's default group.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z-]+$`
	// +kubebuilder:validation:items:MaxLength=64
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// SecurityGroupRefs name SecurityGroup objects in this namespace; the instance waits until
	// they are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`

	// AssociatePublicIPAddress gives the instance a public IPv4 address (true) or none
	// (false); unset follows the subnet's setting.
	// +optional
	AssociatePublicIPAddress *bool `json:"associatePublicIPAddress,omitempty"`

	// KeyName is the name of the EC2 key pair whose public key is installed for SSH.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	KeyName string `json:"keyName,omitempty"`

	// EBSVolumes are the instance's EBS volumes, the root volume included (its device name is
	// the image's root device, /dev/xvda for Amazon Linux). They are set at launch.
	// +optional
	// +kubebuilder:validation:MaxItems=26
	// +listType=map
	// +listMapKey=deviceName
	EBSVolumes []EBSVolume `json:"ebsVolumes,omitempty"`

	// UserData is the script or cloud-init configuration the instance runs at boot, as plain
	// text (the operator base64-encodes it). cloud-init runs it at the first boot only, unless
	// it is written to run at every boot: a change is written to the instance, which needs it
	// stopped (see allowRestart), and runs at the next boot only if it is a per-boot script.
	// To run a changed first-boot script, replace the instance.
	// +optional
	// +kubebuilder:validation:MaxLength=16384
	UserData string `json:"userData,omitempty"`

	// IAMInstanceProfile is the name or the ARN of the instance profile that gives the
	// instance its IAM role.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	IAMInstanceProfile string `json:"iamInstanceProfile,omitempty"`

	// IAMInstanceProfileRef names the IAMInstanceProfile object in this namespace whose
	// profile gives the instance its IAM role, instead of iamInstanceProfile; the instance
	// waits until it is Ready.
	// +optional
	IAMInstanceProfileRef *shared.Reference `json:"iamInstanceProfileRef,omitempty"`

	// Monitoring turns on detailed (one-minute) CloudWatch monitoring.
	// +optional
	Monitoring bool `json:"monitoring,omitempty"`

	// MetadataOptions configure the instance metadata service. IMDSv2 (session tokens) is
	// required unless httpTokens says optional.
	// +optional
	MetadataOptions *MetadataOptions `json:"metadataOptions,omitempty"`

	// DisableAPITermination turns on termination protection: TerminateInstances is refused,
	// and so is deleting this object with deletionPolicy Delete until it is set to false.
	// Unset leaves the instance's setting alone.
	// +optional
	DisableAPITermination *bool `json:"disableApiTermination,omitempty"`

	// DisableAPIStop turns on stop protection: StopInstances is refused, and the operator
	// neither stops the instance for state nor for a change that needs a restart. Unset leaves
	// the instance's setting alone.
	// +optional
	DisableAPIStop *bool `json:"disableApiStop,omitempty"`

	// State is the state the instance should be in: running or stopped.
	// +optional
	// +kubebuilder:default=running
	// +kubebuilder:validation:Enum=running;stopped
	State string `json:"state,omitempty"`

	// AllowRestart lets the operator stop a running instance, apply the changes EC2 accepts
	// only on a stopped instance (instanceType, userData) and start it again. Without it such
	// a change waits, reported with the reason RestartRequired, until the instance is stopped
	// (state: stopped, or outside the operator).
	// +optional
	AllowRestart bool `json:"allowRestart,omitempty"`
}

// EBSVolume is an EBS volume attached to the instance at launch.
// +kubebuilder:validation:XValidation:rule="!has(self.iops) || (has(self.volumeType) && self.volumeType in ['io1', 'io2', 'gp3'])",message="iops applies to the volume types io1, io2 and gp3"
// +kubebuilder:validation:XValidation:rule="!has(self.throughput) || (has(self.volumeType) && self.volumeType == 'gp3')",message="throughput applies to the volume type gp3"
// +kubebuilder:validation:XValidation:rule="!has(self.kmsKeyID) || (has(self.encrypted) && self.encrypted)",message="kmsKeyID needs encrypted: true"
type EBSVolume struct {
	// DeviceName is the device name, for example /dev/xvda or /dev/sdf.
	// +kubebuilder:validation:Pattern=`^/dev/[a-z0-9]+$`
	// +kubebuilder:validation:MaxLength=32
	DeviceName string `json:"deviceName"`

	// VolumeSize is the size in GiB; unset takes the image's snapshot size.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65536
	VolumeSize int32 `json:"volumeSize,omitempty"`

	// VolumeType is the EBS volume type.
	// +optional
	// +kubebuilder:validation:Enum=gp2;gp3;io1;io2;st1;sc1;standard
	VolumeType string `json:"volumeType,omitempty"`

	// IOPS are the provisioned I/O operations per second (io1, io2, gp3).
	// +optional
	// +kubebuilder:validation:Minimum=100
	// +kubebuilder:validation:Maximum=256000
	IOPS int32 `json:"iops,omitempty"`

	// Throughput is the throughput in MiB/s (gp3).
	// +optional
	// +kubebuilder:validation:Minimum=125
	// +kubebuilder:validation:Maximum=2000
	Throughput int32 `json:"throughput,omitempty"`

	// Encrypted encrypts the volume; unset follows the account's EBS encryption default.
	// +optional
	Encrypted *bool `json:"encrypted,omitempty"`

	// KMSKeyID is the KMS key (id, alias or ARN) that encrypts the volume; unset takes the
	// account's default EBS key.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// DeleteOnTermination deletes the volume with the instance; unset is true, as in AWS.
	// +optional
	DeleteOnTermination *bool `json:"deleteOnTermination,omitempty"`
}

// MetadataOptions configure the instance metadata service (IMDS).
type MetadataOptions struct {
	// HTTPTokens is required (IMDSv2 only, the default) or optional (IMDSv1 allowed too).
	// +optional
	// +kubebuilder:default=required
	// +kubebuilder:validation:Enum=required;optional
	HTTPTokens string `json:"httpTokens,omitempty"`

	// HTTPEndpoint turns the metadata service on (enabled, the default) or off (disabled).
	// +optional
	// +kubebuilder:default=enabled
	// +kubebuilder:validation:Enum=enabled;disabled
	HTTPEndpoint string `json:"httpEndpoint,omitempty"`

	// HTTPPutResponseHopLimit is how many network hops the token may travel: 2 lets containers
	// on the instance reach it. Unset is 2.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=64
	HTTPPutResponseHopLimit int32 `json:"httpPutResponseHopLimit,omitempty"`

	// InstanceMetadataTags exposes the instance's tags in the metadata (enabled) or not
	// (disabled, the default).
	// +optional
	// +kubebuilder:validation:Enum=enabled;disabled
	InstanceMetadataTags string `json:"instanceMetadataTags,omitempty"`
}

// EC2InstanceStatus is the observed state of an EC2 instance.
type EC2InstanceStatus struct {
	shared.ManagedStatus `json:",inline"`

	// InstanceID is the instance's id, for example i-0a1b2c3d4e5f60718.
	// +optional
	InstanceID string `json:"instanceID,omitempty" output:""`

	// InstanceARN is the instance's ARN.
	// +optional
	InstanceARN string `json:"instanceARN,omitempty" output:""`

	// InstanceName is the instance's Name tag.
	// +optional
	InstanceName string `json:"instanceName,omitempty"`

	// InstanceType is the instance's type as AWS reports it.
	// +optional
	InstanceType string `json:"instanceType,omitempty"`

	// State is pending, running, stopping, stopped, shutting-down or terminated.
	// +optional
	State string `json:"state,omitempty"`

	// PublicIP is the instance's public IPv4 address, if it has one.
	// +optional
	PublicIP string `json:"publicIP,omitempty" output:""`

	// PrivateIP is the instance's private IPv4 address in its subnet.
	// +optional
	PrivateIP string `json:"privateIP,omitempty" output:""`

	// SubnetID is the subnet the instance is in.
	// +optional
	SubnetID string `json:"subnetID,omitempty" output:""`

	// AvailabilityZone is the Availability Zone the instance is in.
	// +optional
	AvailabilityZone string `json:"availabilityZone,omitempty" output:""`
}

// EC2Instance is an EC2 instance. Its image, subnet, key pair, public address, volumes and
// instance profile are set at launch: they can be corrected until the instance exists in AWS
// (a placeholder subnetID replaced by the real one, for example), and not afterwards — create
// a new EC2Instance to change them.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.instanceID) || (has(oldSelf.status.state) && oldSelf.status.state == 'terminated') || self.spec.imageID == oldSelf.spec.imageID",message="imageID cannot change once the instance exists; create a new EC2Instance to move to another image"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.instanceID) || (has(oldSelf.status.state) && oldSelf.status.state == 'terminated') || (has(self.spec.subnetID) == has(oldSelf.spec.subnetID) && (!has(self.spec.subnetID) || self.spec.subnetID == oldSelf.spec.subnetID) && has(self.spec.subnetRef) == has(oldSelf.spec.subnetRef) && (!has(self.spec.subnetRef) || self.spec.subnetRef.name == oldSelf.spec.subnetRef.name))",message="the subnet of an instance cannot change once it exists; create a new EC2Instance in the other subnet"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.instanceID) || (has(oldSelf.status.state) && oldSelf.status.state == 'terminated') || (has(self.spec.keyName) == has(oldSelf.spec.keyName) && (!has(self.spec.keyName) || self.spec.keyName == oldSelf.spec.keyName))",message="keyName cannot change once the instance exists; create a new EC2Instance, or install the key on the instance yourself"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.instanceID) || (has(oldSelf.status.state) && oldSelf.status.state == 'terminated') || (has(self.spec.ebsVolumes) == has(oldSelf.spec.ebsVolumes) && (!has(self.spec.ebsVolumes) || self.spec.ebsVolumes == oldSelf.spec.ebsVolumes))",message="ebsVolumes are set at launch and cannot change once the instance exists; create a new EC2Instance, or change the volumes in EC2 (ModifyVolume)"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.instanceID) || (has(oldSelf.status.state) && oldSelf.status.state == 'terminated') || (has(self.spec.iamInstanceProfile) == has(oldSelf.spec.iamInstanceProfile) && (!has(self.spec.iamInstanceProfile) || self.spec.iamInstanceProfile == oldSelf.spec.iamInstanceProfile) && has(self.spec.iamInstanceProfileRef) == has(oldSelf.spec.iamInstanceProfileRef) && (!has(self.spec.iamInstanceProfileRef) || self.spec.iamInstanceProfileRef.name == oldSelf.spec.iamInstanceProfileRef.name))",message="the instance profile cannot change once the instance exists; create a new EC2Instance"
// +kubebuilder:validation:XValidation:rule="!has(self.spec.iamInstanceProfile) || !has(self.spec.iamInstanceProfileRef)",message="set iamInstanceProfile or iamInstanceProfileRef, not both"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.instanceID) || (has(oldSelf.status.state) && oldSelf.status.state == 'terminated') || (has(self.spec.associatePublicIPAddress) == has(oldSelf.spec.associatePublicIPAddress) && (!has(self.spec.associatePublicIPAddress) || self.spec.associatePublicIPAddress == oldSelf.spec.associatePublicIPAddress))",message="associatePublicIPAddress cannot change once the instance exists; create a new EC2Instance, or attach an ElasticIP"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ec2,categories={aws,aws-compute}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="INSTANCE",type=string,JSONPath=`.status.instanceID`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="TYPE",type=string,JSONPath=`.status.instanceType`
// +kubebuilder:printcolumn:name="PRIVATE-IP",type=string,JSONPath=`.status.privateIP`
// +kubebuilder:printcolumn:name="PUBLIC-IP",type=string,JSONPath=`.status.publicIP`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type EC2Instance struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EC2InstanceSpec   `json:"spec"`
	Status EC2InstanceStatus `json:"status,omitempty"`
}

// EC2InstanceList is a list of EC2Instances.
// +kubebuilder:object:root=true
type EC2InstanceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EC2Instance `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (i *EC2Instance) GetManagedSpec() *shared.ManagedSpec { return &i.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (i *EC2Instance) GetManagedStatus() *shared.ManagedStatus { return &i.Status.ManagedStatus }
