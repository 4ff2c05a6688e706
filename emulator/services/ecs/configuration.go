package ecs

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
)

// deploymentConfiguration returns a request's deployment configuration over current (nil for a
// new service), with AWS's defaults for what neither gives: a maximum of 200 percent, a minimum
// healthy of 100 percent and the circuit breaker off; or the InvalidParameterException for
// percentages out of range.
func deploymentConfiguration(in, current *types.DeploymentConfiguration) (types.DeploymentConfiguration, error) {
	out := types.DeploymentConfiguration{MaximumPercent: aws.Int32(200), MinimumHealthyPercent: aws.Int32(100),
		DeploymentCircuitBreaker: &types.DeploymentCircuitBreaker{}}
	if current != nil {
		out = *current
	}
	if in == nil {
		return out, nil
	}
	merged := *in
	if merged.MaximumPercent == nil {
		merged.MaximumPercent = out.MaximumPercent
	}
	if merged.MinimumHealthyPercent == nil {
		merged.MinimumHealthyPercent = out.MinimumHealthyPercent
	}
	if merged.DeploymentCircuitBreaker == nil {
		merged.DeploymentCircuitBreaker = out.DeploymentCircuitBreaker
	}
	if minimum := aws.ToInt32(merged.MinimumHealthyPercent); minimum < 0 || minimum > 100 {
		return out, invalidParameter("minimumHealthyPercent must be between 0 and 100.")
	}
	if aws.ToInt32(merged.MaximumPercent) < aws.ToInt32(merged.MinimumHealthyPercent) {
		return out, invalidParameter("maximumPercent must be greater than or equal to minimumHealthyPercent.")
	}
	return merged, nil
}

// checkLoadBalancers returns the InvalidParameterException AWS gives a load balancer whose
// container is not in the task definition, or whose container port is not among that
// container's port mappings.
func checkLoadBalancers(lbs []types.LoadBalancer, t *taskDefinition) error {
	for _, lb := range lbs {
		name := aws.ToString(lb.ContainerName)
		i := slices.IndexFunc(t.def.ContainerDefinitions, func(c types.ContainerDefinition) bool { return aws.ToString(c.Name) == name })
		if i < 0 {
			return invalidParameter("The container %s does not exist in the task definition.", name)
		}
		port := aws.ToInt32(lb.ContainerPort)
		if !slices.ContainsFunc(t.def.ContainerDefinitions[i].PortMappings, func(p types.PortMapping) bool { return aws.ToInt32(p.ContainerPort) == port }) {
			return invalidParameter("The container %s did not have a container port %d defined.", name, port)
		}
	}
	return nil
}

// gracePeriod returns the health check grace period a service keeps: the one given (or the
// current one), 0 for a service with load balancers that gives none, nil without load
// balancers; a grace period without load balancers is AWS's InvalidParameterException.
func gracePeriod(given, current *int32, lbs []types.LoadBalancer) (*int32, error) {
	period := current
	if given != nil {
		period = given
	}
	if len(lbs) == 0 {
		if given != nil {
			return nil, invalidParameter("Health check grace period is only valid for services configured to use load balancers")
		}
		return nil, nil
	}
	if period == nil {
		return aws.Int32(0), nil
	}
	return period, nil
}
