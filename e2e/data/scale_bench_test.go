package data_test

import (
	"fmt"
	"net/http"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkScaleS3Buckets applies N S3Buckets at once to the data-operator binary (N from
// INFRA_SCALE, default 200, 1000 and 5000) and prints the figures of kubetest.RunScale.
func BenchmarkScaleS3Buckets(b *testing.B) {
	kubetest.RunScale(b, kubetest.ScaleCheck{Family: data.Family(), AWS: newEmulator, Object: bucket},
		kubetest.ScaleSizes(b, "INFRA_SCALE", 200, 1000, 5000))
}

// BenchmarkScaleMixed applies N objects at once, S3Buckets and DynamoDBTables in turn (N from
// INFRA_SCALE_MIXED, default 1000): tables go through CREATING before they are ACTIVE.
func BenchmarkScaleMixed(b *testing.B) {
	kubetest.RunScale(b, kubetest.ScaleCheck{Family: data.Family(), AWS: newEmulator, Object: func(ns string, i int) shared.Managed {
		if i%2 == 0 {
			return bucket(ns, i)
		}
		t := &v1alpha1.DynamoDBTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("table-%05d", i)}}
		t.Spec.ProviderRef.Name = "aws"
		t.Spec.TableName = fmt.Sprintf("%s-table-%05d", ns, i)
		t.Spec.HashKey = v1alpha1.DynamoDBAttribute{Name: "id", Type: "S"}
		return t
	}}, kubetest.ScaleSizes(b, "INFRA_SCALE_MIXED", 1000))
}

func newEmulator() http.Handler { return emulator.New(emulator.Options{}) }

func bucket(ns string, i int) shared.Managed {
	bk := &v1alpha1.S3Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("bucket-%05d", i)}}
	bk.Spec.ProviderRef.Name = "aws"
	bk.Spec.BucketName = fmt.Sprintf("%s-bucket-%05d", ns, i)
	return bk
}
