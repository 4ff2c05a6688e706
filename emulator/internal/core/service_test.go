package core

import (
	"testing"
	"time"
)

// TestServiceConstructors checks the protocol settings QueryService, JSONService and RESTService
// fill in.
func TestServiceConstructors(t *testing.T) {
	q := QueryService("rds", "RDS", "rds", "2014-10-31", nil)
	if q.Protocol != ProtocolQuery || q.XMLNamespace != "http://rds.amazonaws.com/doc/2014-10-31/" || q.APIVersion != "2014-10-31" ||
		q.Throttle.Code != "Throttling" || q.Throttle.Status != 400 {
		t.Fatalf("QueryService = %+v", q)
	}
	j := JSONService("acm", "ACM", "CertificateManager")
	if j.Protocol != ProtocolJSON11 || j.TargetPrefix != "CertificateManager" || j.Throttle.Code != "ThrottlingException" || j.Throttle.Status != 400 {
		t.Fatalf("JSONService = %+v", j)
	}
	r := RESTService("eks", "EKS", ProtocolRESTJSON, nil, j.Throttle)
	if r.Protocol != ProtocolRESTJSON || r.SigningName != "eks" || r.ID != "EKS" || r.Throttle != j.Throttle {
		t.Fatalf("RESTService = %+v", r)
	}
}

// TestDeclare checks that Declare gives a service its transition time, dump and the operations
// of all the maps it is given, and panics when two maps declare one operation.
func TestDeclare(t *testing.T) {
	op := Operation{}
	s := JSONService("ecs", "ECS", "AmazonEC2ContainerServiceV20141113").Declare(time.Second, func() any { return "state" },
		map[string]Operation{"CreateCluster": op}, map[string]Operation{"TagResource": op, "UntagResource": op})
	if s.Transition != time.Second || s.Dump() != "state" || len(s.Operations) != 3 {
		t.Fatalf("Declare = %+v", s)
	}
	defer func() {
		if recover() == nil {
			t.Error("Declare of an operation twice did not panic")
		}
	}()
	JSONService("ecs", "ECS", "AmazonEC2ContainerServiceV20141113").Declare(0, nil, map[string]Operation{"A": op}, map[string]Operation{"A": op})
}
