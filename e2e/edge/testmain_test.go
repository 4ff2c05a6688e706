package edge_test

import (
	"testing"

	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestMain runs the tests with control planes shared between them (see testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }
