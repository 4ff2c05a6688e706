package security_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// The values of the Kubernetes Secret, before and after its change.
const (
	firstValue  = "binary-first-value-7f3a9c"
	secondValue = "binary-second-value-0b81de"
)

// TestBinary builds the security-operator binary and runs it, as a Deployment would, against a
// real control plane and the AWS emulator: a Secrets Manager secret whose value comes from a
// Kubernetes Secret becomes Ready, the AWS call metrics count its creation, a change of the
// Kubernetes Secret reaches Secrets Manager, the binary exits cleanly on SIGTERM, and its debug
// logs hold neither value.
func TestBinary(t *testing.T) {
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: security.Family(),
		AWS:    emulator.New(emulator.Options{}),
		Setup: func(t *testing.T, env *testenv.Env, ns string) {
			kubetest.Create(t, env.Client, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app-db"},
				Data: map[string][]byte{"password": []byte(firstValue)}})
		},
		Object: func(ns string) shared.Managed {
			s := &v1alpha1.SecretsManagerSecret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}}
			s.Spec.ProviderRef.Name = "aws"
			s.Spec.SecretName = ns + "/app/db"
			s.Spec.SecretStringSecretRef = &shared.SecretKeySelector{Name: "app-db", Key: "password"}
			return s
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateSecret",outcome="success",service="Secrets Manager"} 1`,
			`infra_operator_resources{kind="SecretsManagerSecret",ready="true"} 1`,
		},
		Then: func(t *testing.T, env *testenv.Env, ns string) {
			kubetest.Update(t, env.Client, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app-db"}}, func(s *corev1.Secret) {
				s.Data["password"] = []byte(secondValue)
			})
			api := secretsmanager.NewFromConfig(env.AWSConfig("AKIDBINARY", "binary-secret"))
			testenv.Eventually(t, 30*time.Second, func() string {
				out, err := api.GetSecretValue(context.Background(), &secretsmanager.GetSecretValueInput{SecretId: aws.String(ns + "/app/db")})
				if err != nil {
					return err.Error()
				}
				if aws.ToString(out.SecretString) != secondValue {
					return "the secret still has its first value"
				}
				return ""
			})
		},
		NeverLogged: []string{firstValue, secondValue},
	})
}
