package core

import "testing"

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
