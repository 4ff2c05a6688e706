package caching_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/caching"
	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// The AUTH tokens of the Kubernetes Secret, before and after its change.
const (
	binaryFirstToken  = "binary-first-token-7f3a9c"
	binarySecondToken = "binary-second-token-0b81de"
)

// TestBinary builds the caching-operator binary and runs it, as a Deployment would, against a
// real control plane and the AWS emulator: a Redis cluster encrypted in transit, whose AUTH
// token comes from a Kubernetes Secret, becomes Ready, the AWS call metrics count its creation,
// a change of the Secret rotates the token in ElastiCache, the binary exits cleanly on SIGTERM,
// and its debug logs hold neither token.
func TestBinary(t *testing.T) {
	var clusterID string
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: caching.Family(),
		AWS:    emulator.New(emulator.Options{}),
		Setup: func(t *testing.T, env *testenv.Env, ns string) {
			cfg := env.AWSConfig("AKIDBINARY", "binary-secret")
			subnet, _ := awsfixture.Network(t, ec2.NewFromConfig(cfg), "10.9.0.0/16", "10.9.1.0/24")
			if _, err := elasticache.NewFromConfig(cfg).CreateCacheSubnetGroup(context.Background(), &elasticache.CreateCacheSubnetGroupInput{
				CacheSubnetGroupName: aws.String("cache"), CacheSubnetGroupDescription: aws.String("binary test"), SubnetIds: []string{subnet}}); err != nil {
				t.Fatal(err)
			}
			kubetest.Create(t, env.Client, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "redis-auth"},
				Data: map[string][]byte{"token": []byte(binaryFirstToken)}})
		},
		Object: func(ns string) shared.Managed {
			c := &v1alpha1.ElastiCacheCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "sessions"}}
			c.Spec.ProviderRef.Name = "aws"
			clusterID = "binary-sessions"
			c.Spec.ClusterID, c.Spec.Engine, c.Spec.NodeType, c.Spec.NumCacheNodes, c.Spec.SubnetGroupName = clusterID, "redis", "cache.t3.micro", 1, "cache"
			c.Spec.TransitEncryptionEnabled = true
			c.Spec.AuthTokenSecretRef = &shared.SecretKeySelector{Name: "redis-auth", Key: "token"}
			return c
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateCacheCluster",outcome="success",service="ElastiCache"} 1`,
			`infra_operator_resources{kind="ElastiCacheCluster",ready="true"} 1`,
		},
		Then: func(t *testing.T, env *testenv.Env, ns string) {
			api := elasticache.NewFromConfig(env.AWSConfig("AKIDBINARY", "binary-secret"))
			modified := func() time.Time {
				out, err := api.DescribeCacheClusters(context.Background(), &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(clusterID)})
				if err != nil {
					t.Fatal(err)
				}
				return aws.ToTime(out.CacheClusters[0].AuthTokenLastModifiedDate)
			}
			created := modified()
			kubetest.Update(t, env.Client, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "redis-auth"}}, func(s *corev1.Secret) {
				s.Data["token"] = []byte(binarySecondToken)
			})
			testenv.Eventually(t, 30*time.Second, func() string {
				if !modified().After(created) {
					return "the AUTH token was not rotated"
				}
				return ""
			})
		},
		NeverLogged: []string{binaryFirstToken, binarySecondToken},
	})
}
