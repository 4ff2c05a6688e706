package rdsinstance

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// describeInstances is a narrow stand-in for RDS's DescribeDBInstances (query protocol): it
// knows some instances by id, answers a call naming one of them with it, a call naming none with
// them all in one page, a call naming another with DBInstanceNotFound, and counts the calls.
type describeInstances struct {
	ids   []string
	calls atomic.Int32
}

// ServeHTTP answers one DescribeDBInstances call.
func (f *describeInstances) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.Form.Get("Action") != "DescribeDBInstances" {
		http.Error(w, "unexpected request", http.StatusBadRequest)
		return
	}
	f.calls.Add(1)
	ids := f.ids
	if id := r.Form.Get("DBInstanceIdentifier"); id != "" {
		if !slices.Contains(f.ids, id) {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `<ErrorResponse><Error><Type>Sender</Type><Code>DBInstanceNotFound</Code><Message>DBInstance %s not found.</Message></Error><RequestId>1</RequestId></ErrorResponse>`, id)
			return
		}
		ids = []string{id}
	}
	fmt.Fprint(w, `<DescribeDBInstancesResponse><DescribeDBInstancesResult><DBInstances>`)
	for _, id := range ids {
		fmt.Fprintf(w, `<DBInstance><DBInstanceIdentifier>%s</DBInstanceIdentifier><DBInstanceStatus>available</DBInstanceStatus></DBInstance>`, id)
	}
	fmt.Fprint(w, `</DBInstances></DescribeDBInstancesResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></DescribeDBInstancesResponse>`)
}

// TestListingServesSyncs checks that the periodic syncs of several recorded DB instances share
// one DescribeDBInstances, that a second look at an instance reads it directly, and that an
// object with no recorded identifier never takes its state from the listing.
func TestListingServesSyncs(t *testing.T) {
	fake := &describeInstances{ids: []string{"db-0", "db-1", "db-2"}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	api := rds.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDLISTING", "listing-secret", "")})
	ctx := context.Background()
	var objs []*v1alpha1.RDSInstance
	for _, id := range fake.ids {
		o := &v1alpha1.RDSInstance{ObjectMeta: metav1.ObjectMeta{Name: id}}
		o.Spec.DBInstanceIdentifier = id
		managed.SetExternalName(o, id)
		objs = append(objs, o)
	}
	d := &driver{api: api, instances: newListing(api)}
	describes := func() int { return int(fake.calls.Load()) }
	before := describes()
	for _, o := range objs {
		if inst, err := d.describe(ctx, o, identifier(o)); err != nil || inst == nil || aws.ToString(inst.DBInstanceIdentifier) != o.Name {
			t.Fatalf("describe %s = %v, %v", o.Name, inst, err)
		}
	}
	if got := describes() - before; got != 1 {
		t.Errorf("three syncs made %d DescribeDBInstances calls, want 1 (the listing)", got)
	}
	before = describes()
	if _, err := d.describe(ctx, objs[0], identifier(objs[0])); err != nil {
		t.Fatal(err)
	}
	unrecorded := &v1alpha1.RDSInstance{}
	unrecorded.Spec.DBInstanceIdentifier = "db-1"
	if inst, err := d.describe(ctx, unrecorded, identifier(unrecorded)); err != nil || inst == nil {
		t.Fatalf("describe an unrecorded instance = %v, %v", inst, err)
	}
	if got := describes() - before; got != 2 {
		t.Errorf("a second look and an unrecorded object made %d DescribeDBInstances calls, want 2 (each read directly)", got)
	}
	missing := &v1alpha1.RDSInstance{}
	missing.Spec.DBInstanceIdentifier = "db-none"
	if inst, err := d.describe(ctx, missing, identifier(missing)); err != nil || inst != nil {
		t.Errorf("describe a missing instance = %v, %v; want nothing and no error", inst, err)
	}
}
