package ecstaskdefinition

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
)

// registration returns the RegisterTaskDefinition request of the spec's revision, with tags.
// References are resolved: a container's repositoryRef has put the repository's URI in its
// image, a secret's secretRef the secret's ARN in its valueFrom.
func registration(t *v1alpha1.ECSTaskDefinition, tags map[string]string) *ecs.RegisterTaskDefinitionInput {
	in := &ecs.RegisterTaskDefinitionInput{
		Family:      aws.String(family(t)),
		NetworkMode: types.NetworkMode(networkMode(t)),
		Cpu:         optional(t.Spec.CPU),
		Memory:      optional(t.Spec.Memory),
		TaskRoleArn: optional(t.Spec.TaskRoleARN), ExecutionRoleArn: optional(t.Spec.ExecutionRoleARN),
		Tags: ecsutil.TagList(tags),
	}
	for _, c := range compatibilities(t) {
		in.RequiresCompatibilities = append(in.RequiresCompatibilities, types.Compatibility(c))
	}
	if p := t.Spec.RuntimePlatform; p != nil {
		in.RuntimePlatform = &types.RuntimePlatform{CpuArchitecture: types.CPUArchitecture(p.CPUArchitecture),
			OperatingSystemFamily: types.OSFamily(p.OperatingSystemFamily)}
	}
	for _, c := range t.Spec.Containers {
		in.ContainerDefinitions = append(in.ContainerDefinitions, container(c))
	}
	return in
}

// container returns a container of the spec as ECS takes it.
func container(c v1alpha1.ECSContainer) types.ContainerDefinition {
	d := types.ContainerDefinition{
		Name: aws.String(c.Name), Image: aws.String(image(c)), Essential: aws.Bool(essential(c)), Cpu: c.CPU,
		Memory: c.Memory, MemoryReservation: c.MemoryReservation, Command: c.Command, EntryPoint: c.EntryPoint,
	}
	for _, p := range c.PortMappings {
		m := types.PortMapping{ContainerPort: aws.Int32(p.ContainerPort), Protocol: types.TransportProtocol(protocol(p.Protocol)), Name: optional(p.Name)}
		if p.AppProtocol != "" {
			m.AppProtocol = types.ApplicationProtocol(p.AppProtocol)
		}
		d.PortMappings = append(d.PortMappings, m)
	}
	for _, e := range c.Environment {
		d.Environment = append(d.Environment, types.KeyValuePair{Name: aws.String(e.Name), Value: aws.String(e.Value)})
	}
	for _, s := range c.Secrets {
		d.Secrets = append(d.Secrets, types.Secret{Name: aws.String(s.Name), ValueFrom: aws.String(valueFrom(s))})
	}
	if l := c.LogConfiguration; l != nil {
		d.LogConfiguration = &types.LogConfiguration{LogDriver: types.LogDriver(l.LogDriver), Options: l.Options}
	}
	if h := c.HealthCheck; h != nil {
		d.HealthCheck = &types.HealthCheck{Command: h.Command, Interval: aws.Int32(h.IntervalSeconds), Timeout: aws.Int32(h.TimeoutSeconds),
			Retries: aws.Int32(h.Retries), StartPeriod: aws.Int32(h.StartPeriodSeconds)}
	}
	return d
}

// image returns a container's image: the spec's, or the repository's URI (which its reference
// put in Image) with the tag, or the digest, appended.
func image(c v1alpha1.ECSContainer) string {
	if c.RepositoryRef == nil {
		return c.Image
	}
	tag := c.ImageTag
	if tag == "" {
		tag = "latest"
	}
	if strings.HasPrefix(tag, "sha256:") {
		return c.Image + "@" + tag
	}
	return c.Image + ":" + tag
}

// valueFrom returns where ECS reads a secret: the ARN, with ECS's suffix for one JSON key of a
// Secrets Manager secret (arn:json-key:version-stage:version-id).
func valueFrom(s v1alpha1.ECSContainerSecret) string {
	if s.JSONKey == "" {
		return s.ValueFrom
	}
	return s.ValueFrom + ":" + s.JSONKey + "::"
}

// essential reports whether a container is essential (unset is true).
func essential(c v1alpha1.ECSContainer) bool {
	return c.Essential == nil || *c.Essential
}

// networkMode returns the spec's network mode, awsvpc unless set.
func networkMode(t *v1alpha1.ECSTaskDefinition) string {
	if t.Spec.NetworkMode == "" {
		return string(types.NetworkModeAwsvpc)
	}
	return t.Spec.NetworkMode
}

// compatibilities returns where the spec's tasks may run, FARGATE unless set.
func compatibilities(t *v1alpha1.ECSTaskDefinition) []string {
	if len(t.Spec.RequiresCompatibilities) == 0 {
		return []string{string(types.CompatibilityFargate)}
	}
	return t.Spec.RequiresCompatibilities
}

// protocol returns a port mapping's protocol, tcp unless set.
func protocol(p string) string {
	if p == "" {
		return string(types.TransportProtocolTcp)
	}
	return p
}

// optional returns nil for "", else a pointer to s.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}
