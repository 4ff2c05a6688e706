package ecs

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Registry is what ECS needs of the emulated ECR: whether an image of a private registry can be
// pulled. The ECR backend implements it.
type Registry interface {
	// Pullable reports whether the registry of scope holds an image of the repository name under
	// reference, a tag or a "sha256:" digest.
	Pullable(scope core.Scope, name, reference string) bool
}

// ecrImage matches an image of a private ECR registry; its groups are the account, the Region,
// the repository, and the tag or the digest (both empty for an image named without either).
var ecrImage = regexp.MustCompile(`^([0-9]{12})\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?/([a-z0-9._/-]+?)(?::([A-Za-z0-9_.-]+)|@(sha256:[a-f0-9]{64}))?$`)

// pullFailure returns the stoppedReason of a task whose containers cannot all be pulled: the
// first container image of the emulated ECR's registries whose repository or image does not
// exist, in the words the Fargate container runtime gives ("CannotPullContainerError: pull
// image manifest has been retried 5 time(s): failed to resolve ref ...: not found"), and the
// container's name; "" when every image can be pulled. Images outside ECR (public.ecr.aws,
// Docker Hub, other registries) are taken as pullable.
func pullFailure(images Registry, t *taskDefinition) (reason, container string) {
	for _, c := range t.def.ContainerDefinitions {
		m := ecrImage.FindStringSubmatch(aws.ToString(c.Image))
		if m == nil {
			continue
		}
		reference, ref := m[4], m[0]
		switch {
		case m[5] != "":
			reference = m[5]
		case reference == "":
			reference, ref = "latest", ref+":latest"
		}
		if !images.Pullable(core.Scope{Account: m[1], Region: m[2]}, m[3], reference) {
			return "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref " + ref + ": " + ref + ": not found", aws.ToString(c.Name)
		}
	}
	return "", ""
}
