package ecsservice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
)

// network returns the spec's awsvpc configuration as ECS takes it, nil for none.
func network(s *v1alpha1.ECSService) *types.NetworkConfiguration {
	n := s.Spec.Network
	if n == nil {
		return nil
	}
	public := types.AssignPublicIpDisabled
	if n.AssignPublicIP {
		public = types.AssignPublicIpEnabled
	}
	return &types.NetworkConfiguration{AwsvpcConfiguration: &types.AwsVpcConfiguration{Subnets: sorted(n.SubnetIDs),
		SecurityGroups: sorted(n.SecurityGroupIDs), AssignPublicIp: public}}
}

// networkKey is how a network configuration compares and shows: subnets, security groups and
// the public IP setting.
func networkKey(n *types.NetworkConfiguration) string {
	if n == nil || n.AwsvpcConfiguration == nil {
		return ""
	}
	c := n.AwsvpcConfiguration
	public := c.AssignPublicIp
	if public == "" {
		public = types.AssignPublicIpDisabled
	}
	return fmt.Sprintf("subnets=%s securityGroups=%s assignPublicIp=%s", strings.Join(sorted(c.Subnets), ","), strings.Join(sorted(c.SecurityGroups), ","), public)
}

// loadBalancers returns the spec's load balancers as ECS takes them (references resolved into
// their target group ARNs).
func loadBalancers(s *v1alpha1.ECSService) []types.LoadBalancer {
	out := []types.LoadBalancer{}
	for _, lb := range s.Spec.LoadBalancers {
		out = append(out, types.LoadBalancer{TargetGroupArn: aws.String(lb.TargetGroupARN), ContainerName: aws.String(lb.ContainerName),
			ContainerPort: aws.Int32(lb.ContainerPort)})
	}
	return out
}

// loadBalancerKeys returns load balancers as comparable strings, sorted.
func loadBalancerKeys(lbs []types.LoadBalancer) []string {
	keys := []string{}
	for _, lb := range lbs {
		keys = append(keys, fmt.Sprintf("%s %s:%d", aws.ToString(lb.TargetGroupArn), aws.ToString(lb.ContainerName), aws.ToInt32(lb.ContainerPort)))
	}
	slices.Sort(keys)
	return keys
}

// deployment returns the spec's deployment configuration as ECS takes it.
func deployment(s *v1alpha1.ECSService) *types.DeploymentConfiguration {
	d := s.Spec.Deployment
	maxPercent, minHealthy := d.MaximumPercent, int32(100)
	if maxPercent == 0 {
		maxPercent = 200
	}
	if d.MinimumHealthyPercent != nil {
		minHealthy = *d.MinimumHealthyPercent
	}
	return &types.DeploymentConfiguration{MaximumPercent: aws.Int32(maxPercent), MinimumHealthyPercent: aws.Int32(minHealthy),
		DeploymentCircuitBreaker: &types.DeploymentCircuitBreaker{Enable: d.CircuitBreaker.Enable, Rollback: d.CircuitBreaker.Rollback}}
}

// deploymentKey is how a deployment configuration compares and shows.
func deploymentKey(c *types.DeploymentConfiguration) string {
	if c == nil {
		return ""
	}
	breaker := types.DeploymentCircuitBreaker{}
	if c.DeploymentCircuitBreaker != nil {
		breaker = *c.DeploymentCircuitBreaker
	}
	return fmt.Sprintf("maximumPercent=%d minimumHealthyPercent=%d circuitBreaker=%t rollback=%t", aws.ToInt32(c.MaximumPercent),
		aws.ToInt32(c.MinimumHealthyPercent), breaker.Enable, breaker.Rollback)
}

// serviceConnect returns the spec's Service Connect configuration as ECS takes it, nil for
// none.
func serviceConnect(s *v1alpha1.ECSService) *types.ServiceConnectConfiguration {
	sc := s.Spec.ServiceConnect
	if sc == nil {
		return nil
	}
	out := &types.ServiceConnectConfiguration{Enabled: true}
	if sc.Namespace != "" {
		out.Namespace = aws.String(sc.Namespace)
	}
	for _, svc := range sc.Services {
		item := types.ServiceConnectService{PortName: aws.String(svc.PortName)}
		if svc.DiscoveryName != "" {
			item.DiscoveryName = aws.String(svc.DiscoveryName)
		}
		if svc.Port != 0 || svc.DNSName != "" {
			alias := types.ServiceConnectClientAlias{DnsName: aws.String(svc.DNSName)}
			if svc.Port != 0 {
				alias.Port = aws.Int32(svc.Port)
			}
			item.ClientAliases = []types.ServiceConnectClientAlias{alias}
		}
		out.Services = append(out.Services, item)
	}
	return out
}

// serviceConnectKey is how a Service Connect configuration compares and shows: whether it is
// enabled, and the ports offered by name (a namespace the spec leaves to the cluster is not
// compared).
func serviceConnectKey(c *types.ServiceConnectConfiguration, namespace bool) string {
	if c == nil || !c.Enabled {
		return "disabled"
	}
	var ports []string
	for _, s := range c.Services {
		ports = append(ports, aws.ToString(s.PortName)+"="+aws.ToString(s.DiscoveryName))
	}
	slices.Sort(ports)
	key := "enabled services=" + strings.Join(ports, ",")
	if namespace {
		key += " namespace=" + aws.ToString(c.Namespace)
	}
	return key
}

// propagateTags returns what the spec propagates tags from, SERVICE unless set.
func propagateTags(s *v1alpha1.ECSService) types.PropagateTags {
	if s.Spec.PropagateTags == "" {
		return types.PropagateTagsService
	}
	return types.PropagateTags(s.Spec.PropagateTags)
}

// sameRevision reports whether have, the ARN of the revision a service runs, is the revision
// want names: an ARN, family:revision, or a family alone (any revision of it).
func sameRevision(have, want string) bool {
	switch {
	case strings.HasPrefix(want, "arn:"):
		return have == want
	case strings.Contains(want, ":"):
		return strings.HasSuffix(have, "task-definition/"+want)
	}
	family, _, _ := strings.Cut(have[strings.LastIndex(have, "/")+1:], ":")
	return family == want
}

// sorted returns a sorted copy of ids, [] for none.
func sorted(ids []string) []string {
	return slices.Sorted(slices.Values(append([]string{}, ids...)))
}
