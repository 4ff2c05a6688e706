package fake_test

import (
	"testing"

	"github.com/runner-codes/infra-operator/operators/fake/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// BenchmarkSeedExamples applies the fake family's examples.
func BenchmarkSeedExamples(b *testing.B) {
	for _, tc := range []struct {
		file     string
		obj      shared.Managed
		services []string
		swap     map[string]any
	}{
		{"widget.yaml", &v1alpha1.Widget{ObjectMeta: seedMeta("my-widget")}, []string{"EC2", "S3"}, map[string]any{"subnetID": "subnet-1"}},
	} {
		b.Run(tc.file, func(b *testing.B) {})
	}
}
