// Command new-kind writes the skeleton of a new kind in an existing family: the API type
// (registered in the family's scheme), the driver package with its declaration and stubs that
// fail until written, the registration in the family's Kinds, the RBAC markers, an example,
// an entry in the family's benchmark and a test that fails until written. It refuses a kind
// that exists, and prints the steps that are left. Run it from e2e/:
//
//	go run ./cmd/new-kind -root .. -family networking -kind ElasticIP -service ec2
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	var o options
	flag.StringVar(&o.Root, "root", ".", "the repository's root directory")
	flag.StringVar(&o.Family, "family", "", "the family the kind belongs to, for example networking")
	flag.StringVar(&o.Kind, "kind", "", "the kind's name, for example ElasticIP")
	flag.StringVar(&o.Service, "service", "", "the AWS SDK service package the driver calls, for example ec2")
	flag.Parse()
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "new-kind:", err)
		os.Exit(1)
	}
}
