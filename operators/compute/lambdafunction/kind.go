// Package lambdafunction manages Lambda functions for the LambdaFunction kind: created with
// their code from S3, a container image or a ConfigMap, configured in place, with reserved
// concurrency, a function URL, environment values from Secrets that never reach the status,
// and a new version published on each change when the spec asks for it. A function is Pending
// after its creation and InProgress after each update: the kind waits for both, never blocks.
package lambdafunction

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the LambdaFunction kind to the engine.
func Kind() managed.Kind[*v1alpha1.LambdaFunction, State] {
	return managed.Kind[*v1alpha1.LambdaFunction, State]{
		// A new function is Pending for seconds in AWS (1s in the emulator).
		ReadyIn: time.Second,
		Guard:   guard,
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.LambdaFunction) managed.Driver[*v1alpha1.LambdaFunction, State] {
			return &driver{api: provider.Client(s, "lambda", func(c aws.Config) *lambda.Client { return lambda.NewFromConfig(c) }), kube: kube}
		},
		Secrets: func(f *v1alpha1.LambdaFunction) []string {
			var names []string
			if env := f.Spec.Environment; env != nil {
				for _, v := range env.FromSecrets {
					names = append(names, v.SecretKeyRef.Name)
				}
			}
			return names
		},
		References: []managed.Ref[*v1alpha1.LambdaFunction]{
			managed.One(targets.IAMRole, "spec.roleRef", func(f *v1alpha1.LambdaFunction) (*shared.Reference, *string) {
				return f.Spec.RoleRef, &f.Spec.RoleARN
			}),
			managed.List(targets.Subnet, "spec.vpcConfig.subnetRefs", "", func(f *v1alpha1.LambdaFunction) ([]shared.Reference, *shared.Selector, *[]string) {
				if v := f.Spec.VPCConfig; v != nil {
					return v.SubnetRefs, nil, &v.SubnetIDs
				}
				return nil, nil, new([]string)
			}),
			managed.List(targets.SecurityGroup, "spec.vpcConfig.securityGroupRefs", "", func(f *v1alpha1.LambdaFunction) ([]shared.Reference, *shared.Selector, *[]string) {
				if v := f.Spec.VPCConfig; v != nil {
					return v.SecurityGroupRefs, nil, &v.SecurityGroupIDs
				}
				return nil, nil, new([]string)
			}),
		},
	}
}

// driver manages one provider's functions; kube reads the Secrets and ConfigMaps the spec
// names.
type driver struct {
	api  *lambda.Client
	kube client.Reader
}
