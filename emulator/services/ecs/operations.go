package ecs

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are ECS's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateCluster":               core.Op(b.createCluster),
		"DescribeClusters":            core.Op(b.describeClusters),
		"ListClusters":                core.Op(b.listClusters),
		"UpdateCluster":               core.Op(b.updateCluster),
		"UpdateClusterSettings":       core.Op(b.updateClusterSettings),
		"PutClusterCapacityProviders": core.Op(b.putClusterCapacityProviders),
		"DeleteCluster":               core.Op(b.deleteCluster),
		"RegisterTaskDefinition":      core.Op(b.registerTaskDefinition),
		"DescribeTaskDefinition":      core.Op(b.describeTaskDefinition),
		"DeregisterTaskDefinition":    core.Op(b.deregisterTaskDefinition),
		"ListTaskDefinitions":         core.Op(b.listTaskDefinitions),
		"DeleteTaskDefinitions":       core.Op(b.deleteTaskDefinitions),
		"CreateService":               core.Op(b.createService),
		"UpdateService":               core.Op(b.updateService),
		"DeleteService":               core.Op(b.deleteService),
		"DescribeServices":            core.Op(b.describeServices),
		"ListServices":                core.Op(b.listServices),
		"ListTasks":                   core.Op(b.listTasks),
		"DescribeTasks":               core.Op(b.describeTasks),
	}
}
