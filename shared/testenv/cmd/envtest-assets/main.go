// Command envtest-assets builds the test control plane (kube-apiserver, etcd and kubectl) from
// Go modules into the cache, when it is not there yet, and prints the directory to use as
// KUBEBUILDER_ASSETS. Progress goes to standard error.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/runner-codes/infra-operator/shared/testenv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir, err := testenv.BuildAssets(ctx, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "envtest-assets:", err)
		os.Exit(1)
	}
	fmt.Println(dir)
}
