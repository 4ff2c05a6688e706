package ecsservice

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the service with force, which scales it to 0 and stops its tasks: ECS keeps
// it DRAINING until they have stopped, and the object waits for it to go. A service already
// DRAINING or gone is left to finish.
func (d *driver) Delete(ctx context.Context, s *v1alpha1.ECSService, obs managed.Observation[State]) error {
	svc := obs.State.Service
	if aws.ToString(svc.Status) != statusActive {
		return nil
	}
	_, err := d.api.DeleteService(ctx, &ecs.DeleteServiceInput{Cluster: svc.ClusterArn, Service: svc.ServiceName, Force: aws.Bool(true)})
	switch awserr.Code(err) {
	case "ServiceNotFoundException", "ServiceNotActiveException", "ClusterNotFoundException":
		return nil
	}
	return managed.Wrap(err, "delete service %s", serviceName(s))
}

// ReleaseOwnership removes the ownership tags from the service.
func (d *driver) ReleaseOwnership(ctx context.Context, s *v1alpha1.ECSService, obs managed.Observation[State]) error {
	_, err := d.api.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: obs.State.Service.ServiceArn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "untag service %s", serviceName(s))
}
