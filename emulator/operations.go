package emulator

import (
	"reflect"
	"slices"
)

// ServedService is one AWS service the emulator serves, named as the SDK and the emulator's
// counters name it.
type ServedService struct {
	// ID names the service in counters, faults and errors, for example "EC2".
	ID string
	// SDKPackage is the import path of the aws-sdk-go-v2 package whose client calls the
	// service, for example "github.com/aws/aws-sdk-go-v2/service/ec2".
	SDKPackage string
	// Operations are the names of the operations the emulator serves, sorted.
	Operations []string
}

// Served returns the services s serves, keyed by the import path of their SDK package, for the
// repository's checks that every SDK call a driver makes has an emulated operation. A service's
// SDK package is the package of the input structs its operations decode.
func (s *Server) Served() map[string]ServedService {
	out := map[string]ServedService{}
	for _, svc := range s.Services() {
		for name, op := range svc.Operations {
			pkg := reflect.TypeOf(op.NewInput()).Elem().PkgPath()
			served := out[pkg]
			served.ID, served.SDKPackage = svc.ID, pkg
			served.Operations = append(served.Operations, name)
			out[pkg] = served
		}
	}
	for pkg, served := range out {
		slices.Sort(served.Operations)
		out[pkg] = served
	}
	return out
}
