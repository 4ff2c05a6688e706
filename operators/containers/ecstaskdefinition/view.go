package ecstaskdefinition

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
)

// view is a revision as the spec controls it, in a form that compares equal for the spec's
// registration and ECS's description of the revision it made: lists that are sets sorted, and
// the values ECS fills in (a health check's timing, a port's host port, essential) normalized.
// Its fields are the spec's, by their JSON names, so that a plan names and shows them.
type view struct {
	CPU                     string          `json:"cpu"`
	Memory                  string          `json:"memory"`
	NetworkMode             string          `json:"networkMode"`
	RequiresCompatibilities []string        `json:"requiresCompatibilities"`
	RuntimePlatform         string          `json:"runtimePlatform"`
	TaskRoleARN             string          `json:"taskRoleARN"`
	ExecutionRoleARN        string          `json:"executionRoleARN"`
	Containers              []containerView `json:"containers"`
}

// containerView is a container as view compares it.
type containerView struct {
	Name              string   `json:"name"`
	Image             string   `json:"image"`
	Essential         bool     `json:"essential"`
	CPU               int32    `json:"cpu,omitempty"`
	Memory            int32    `json:"memory,omitempty"`
	MemoryReservation int32    `json:"memoryReservation,omitempty"`
	Command           []string `json:"command,omitempty"`
	EntryPoint        []string `json:"entryPoint,omitempty"`
	Ports             []string `json:"portMappings,omitempty"`
	Environment       []string `json:"environment,omitempty"`
	Secrets           []string `json:"secrets,omitempty"`
	Log               string   `json:"logConfiguration,omitempty"`
	HealthCheck       string   `json:"healthCheck,omitempty"`
}

// requested returns the view of a registration.
func requested(in *ecs.RegisterTaskDefinitionInput) view {
	return viewOf(types.TaskDefinition{Cpu: in.Cpu, Memory: in.Memory, NetworkMode: in.NetworkMode, RequiresCompatibilities: in.RequiresCompatibilities,
		RuntimePlatform: in.RuntimePlatform, TaskRoleArn: in.TaskRoleArn, ExecutionRoleArn: in.ExecutionRoleArn, ContainerDefinitions: in.ContainerDefinitions})
}

// viewOf returns the view of a registered revision.
func viewOf(d types.TaskDefinition) view {
	v := view{CPU: aws.ToString(d.Cpu), Memory: aws.ToString(d.Memory), NetworkMode: string(d.NetworkMode),
		TaskRoleARN: aws.ToString(d.TaskRoleArn), ExecutionRoleARN: aws.ToString(d.ExecutionRoleArn), Containers: []containerView{}}
	if v.NetworkMode == "" {
		v.NetworkMode = string(types.NetworkModeBridge)
	}
	for _, c := range d.RequiresCompatibilities {
		v.RequiresCompatibilities = append(v.RequiresCompatibilities, string(c))
	}
	slices.Sort(v.RequiresCompatibilities)
	if p := d.RuntimePlatform; p != nil && (p.CpuArchitecture != "" || p.OperatingSystemFamily != "") {
		v.RuntimePlatform = string(p.CpuArchitecture) + "/" + string(p.OperatingSystemFamily)
	}
	for _, c := range d.ContainerDefinitions {
		v.Containers = append(v.Containers, containerViewOf(c))
	}
	slices.SortFunc(v.Containers, func(a, b containerView) int { return strings.Compare(a.Name, b.Name) })
	return v
}

// containerViewOf returns the view of one container definition.
func containerViewOf(c types.ContainerDefinition) containerView {
	v := containerView{Name: aws.ToString(c.Name), Image: aws.ToString(c.Image), Essential: c.Essential == nil || *c.Essential, CPU: c.Cpu,
		Memory: aws.ToInt32(c.Memory), MemoryReservation: aws.ToInt32(c.MemoryReservation), Command: c.Command, EntryPoint: c.EntryPoint}
	for _, p := range c.PortMappings {
		v.Ports = append(v.Ports, fmt.Sprintf("%d/%s name=%s app=%s", aws.ToInt32(p.ContainerPort), protocol(string(p.Protocol)), aws.ToString(p.Name), p.AppProtocol))
	}
	for _, e := range c.Environment {
		v.Environment = append(v.Environment, aws.ToString(e.Name)+"="+aws.ToString(e.Value))
	}
	for _, s := range c.Secrets {
		v.Secrets = append(v.Secrets, aws.ToString(s.Name)+"<-"+aws.ToString(s.ValueFrom))
	}
	slices.Sort(v.Ports)
	slices.Sort(v.Environment)
	slices.Sort(v.Secrets)
	if l := c.LogConfiguration; l != nil {
		var opts []string
		for _, k := range slices.Sorted(maps.Keys(l.Options)) {
			opts = append(opts, k+"="+l.Options[k])
		}
		v.Log = string(l.LogDriver) + " " + strings.Join(opts, ",")
	}
	if h := c.HealthCheck; h != nil {
		v.HealthCheck = fmt.Sprintf("%q every %ds, timeout %ds, %d retries, start period %ds", h.Command, orDefault(h.Interval, 30),
			orDefault(h.Timeout, 5), orDefault(h.Retries, 3), orDefault(h.StartPeriod, 0))
	}
	return v
}

// orDefault returns *n, or ECS's default d when n is unset.
func orDefault(n *int32, d int32) int32 {
	if n == nil {
		return d
	}
	return *n
}

// comparable writes a value of a view for a comparison: as JSON, in which a container's unset
// lists and an empty one are the same (omitted), and a nil list of compatibilities is [].
func comparable(v any) string {
	if l, ok := v.([]string); ok && l == nil {
		v = []string{}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// differences returns the fields in which have differs from want, by their JSON names, and
// the values a plan shows for each.
func differences(have, want view) ([]string, map[string][2]any) {
	var fields []string
	values := map[string][2]any{}
	add := func(field string, h, w any) {
		if comparable(h) != comparable(w) {
			fields = append(fields, field)
			values[field] = [2]any{h, w}
		}
	}
	add("cpu", have.CPU, want.CPU)
	add("memory", have.Memory, want.Memory)
	add("networkMode", have.NetworkMode, want.NetworkMode)
	add("requiresCompatibilities", have.RequiresCompatibilities, want.RequiresCompatibilities)
	add("runtimePlatform", have.RuntimePlatform, want.RuntimePlatform)
	add("taskRoleARN", have.TaskRoleARN, want.TaskRoleARN)
	add("executionRoleARN", have.ExecutionRoleARN, want.ExecutionRoleARN)
	add("containers", have.Containers, want.Containers)
	return fields, values
}
