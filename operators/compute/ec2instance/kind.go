// Package ec2instance manages EC2 instances for the EC2Instance kind: launched once with an
// idempotency token, kept in the spec's state (running or stopped), changed in place where EC2
// allows it, and stopped and started for the changes EC2 accepts only on a stopped instance
// when the spec allows a restart.
package ec2instance

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the EC2Instance kind to the engine.
func Kind() managed.Kind[*v1alpha1.EC2Instance, State] {
	return managed.Kind[*v1alpha1.EC2Instance, State]{
		// An instance is pending for tens of seconds in AWS (1s in the emulator).
		ReadyIn: time.Second,
		Guard:   guard,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.EC2Instance) managed.Driver[*v1alpha1.EC2Instance, State] {
			api := ec2util.Client(s)
			return &driver{api: api, instances: instances(api).For(s), partition: provider.Partition(s.Config.Region), region: s.Config.Region}
		},
		References: []managed.Ref[*v1alpha1.EC2Instance]{
			managed.One(targets.Subnet, "spec.subnetRef", func(i *v1alpha1.EC2Instance) (*shared.Reference, *string) {
				return i.Spec.SubnetRef, &i.Spec.SubnetID
			}),
			managed.List(targets.SecurityGroup, "spec.securityGroupRefs", "", func(i *v1alpha1.EC2Instance) ([]shared.Reference, *shared.Selector, *[]string) {
				return i.Spec.SecurityGroupRefs, nil, &i.Spec.SecurityGroupIDs
			}),
			managed.One(targets.IAMInstanceProfile, "spec.iamInstanceProfileRef", func(i *v1alpha1.EC2Instance) (*shared.Reference, *string) {
				return i.Spec.IAMInstanceProfileRef, &i.Spec.IAMInstanceProfile
			}),
		},
	}
}

// instances reads instances. Among several instances with the same owner (a terminated one
// stays visible for about an hour after it was replaced), it picks a live one, else the newest.
func instances(api *ec2.Client) ec2util.Describer[ec2util.Instance] {
	return ec2util.Instances(api).Replaceable(gone, func(i ec2util.Instance) time.Time { return aws.ToTime(i.LaunchTime) })
}

// gone reports whether an instance is shutting down or terminated.
func gone(i ec2util.Instance) bool {
	name := stateName(i)
	return name == types.InstanceStateNameShuttingDown || name == types.InstanceStateNameTerminated
}

// stateName returns the name of an instance's state.
func stateName(i ec2util.Instance) types.InstanceStateName {
	if i.State == nil {
		return ""
	}
	return i.State.Name
}

// driver manages one provider's instances.
type driver struct {
	api               *ec2.Client
	instances         ec2util.Source[ec2util.Instance]
	partition, region string
}
