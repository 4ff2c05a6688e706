package fake_test

import (
	"testing"

	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestMain boots each test's control plane while the test before it runs (see testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }
