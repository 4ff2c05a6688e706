package ecstaskdefinition

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// unused returns the previous revisions of t that no ECSService of t's namespace deploys: none
// names it as its task definition or as one of its deployments'. It reads the API server only
// when t has previous revisions.
func (d *driver) unused(ctx context.Context, t *v1alpha1.ECSTaskDefinition) ([]string, error) {
	if len(t.Status.PreviousRevisions) == 0 {
		return nil, nil
	}
	var services v1alpha1.ECSServiceList
	if err := d.kube.List(ctx, &services, client.InNamespace(t.Namespace)); err != nil {
		return nil, fmt.Errorf("list the ECSServices of namespace %s, to find the revisions they deploy: %w", t.Namespace, err)
	}
	deployed := map[string]bool{}
	for _, s := range services.Items {
		deployed[s.Status.TaskDefinition] = true
		for _, dep := range s.Status.Deployments {
			deployed[dep.TaskDefinition] = true
		}
	}
	var out []string
	for _, arn := range t.Status.PreviousRevisions {
		if !deployed[arn] {
			out = append(out, arn)
		}
	}
	return out, nil
}

// deregister deregisters the revisions arns and forgets them; one already INACTIVE or gone is
// success.
func (d *driver) deregister(ctx context.Context, t *v1alpha1.ECSTaskDefinition, arns []string) error {
	for _, arn := range arns {
		_, err := d.api.DeregisterTaskDefinition(ctx, &ecs.DeregisterTaskDefinitionInput{TaskDefinition: aws.String(arn)})
		if err != nil && !gone(err) {
			return managed.Wrap(err, "deregister task definition %s", arn)
		}
		t.Status.PreviousRevisions = slices.DeleteFunc(t.Status.PreviousRevisions, func(a string) bool { return a == arn })
	}
	return nil
}

// gone reports whether err is ECS's answer to the deregistration of a revision that does not
// exist (any more).
func gone(err error) bool {
	return awserr.Code(err) == "ClientException" && strings.Contains(err.Error(), "does not exist")
}
