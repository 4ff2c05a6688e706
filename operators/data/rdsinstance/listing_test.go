package rdsinstance

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestListingServesSyncs checks that the periodic syncs of several recorded DB instances share
// one DescribeDBInstances, that a second look at an instance reads it directly, and that an
// object with no recorded identifier never takes its state from the listing.
func TestListingServesSyncs(t *testing.T) {
	emu := emulator.New(emulator.Options{})
	srv := httptest.NewServer(emu)
	defer srv.Close()
	api := rds.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDLISTING", "listing-secret", "")})
	ctx := context.Background()
	var objs []*v1alpha1.RDSInstance
	for n := range 3 {
		id := fmt.Sprintf("db-%d", n)
		if _, err := api.CreateDBInstance(ctx, &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String(id), Engine: aws.String("postgres"),
			DBInstanceClass: aws.String("db.t3.micro"), AllocatedStorage: aws.Int32(20), MasterUsername: aws.String("app"),
			MasterUserPassword: aws.String("a-long-password")}); err != nil {
			t.Fatal(err)
		}
		o := &v1alpha1.RDSInstance{ObjectMeta: metav1.ObjectMeta{Name: id}}
		o.Spec.DBInstanceIdentifier = id
		managed.SetExternalName(o, id)
		objs = append(objs, o)
	}
	d := &driver{api: api, instances: newListing(api)}
	describes := func() int { return emu.Calls.Total("RDS", "DescribeDBInstances") }
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
