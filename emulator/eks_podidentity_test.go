package emulator_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

var (
	associationID  = regexp.MustCompile(`^a-[a-z0-9]{17}$`)
	associationARN = regexp.MustCompile(`^arn:aws:eks:us-east-1:000000000000:podidentityassociation/apps/a-[a-z0-9]{17}$`)
)

// TestEKSPodIdentity follows Pod Identity associations through their operations: AWS's ids and
// ARNs, one association per namespace and service account, client request tokens, updates,
// filters and pages, tags, deletion, and their going with their cluster.
func TestEKSPodIdentity(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	activeCluster(t, e, c, clusterInput("apps", n))
	apps := aws.String("apps")
	create := func(namespace, account, role, token string) (*types.PodIdentityAssociation, error) {
		out, err := c.CreatePodIdentityAssociation(ctx, &eks.CreatePodIdentityAssociationInput{ClusterName: apps, Namespace: aws.String(namespace),
			ServiceAccount: aws.String(account), RoleArn: aws.String(role), ClientRequestToken: aws.String(token), Tags: map[string]string{"team": "payments"}})
		if err != nil {
			return nil, err
		}
		return out.Association, nil
	}
	role := "arn:aws:iam::000000000000:role/payments-api"
	a, err := create("payments", "api", role, "pia-1")
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(a.AssociationId)
	if !associationID.MatchString(id) || !associationARN.MatchString(aws.ToString(a.AssociationArn)) || !strings.HasSuffix(aws.ToString(a.AssociationArn), id) ||
		aws.ToString(a.RoleArn) != role || aws.ToBool(a.DisableSessionTags) || a.Tags["team"] != "payments" || a.OwnerArn != nil {
		t.Errorf("association = %+v", a)
	}
	again, err := create("payments", "api", role, "pia-1")
	if err != nil || aws.ToString(again.AssociationId) != id {
		t.Errorf("repeating the create with its token = %+v, %v; want the same association", again, err)
	}
	_, err = create("payments", "api", role, "pia-2")
	wantCode(t, "a second association of the service account", err, "ResourceInUseException")
	if msg := errorMessage(err); msg != "Association already exists: "+id {
		t.Errorf("message %q", msg)
	}
	_, err = create("payments", "worker", "payments-worker", "")
	wantCode(t, "a role that is no ARN", err, "InvalidParameterException")
	_, err = c.CreatePodIdentityAssociation(ctx, &eks.CreatePodIdentityAssociationInput{ClusterName: aws.String("missing"), Namespace: aws.String("payments"),
		ServiceAccount: aws.String("api"), RoleArn: aws.String(role)})
	wantCode(t, "an association in a missing cluster", err, "ResourceNotFoundException")
	worker, err := create("payments", "worker", "arn:aws:iam::000000000000:role/payments-worker", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := create("billing", "api", role, ""); err != nil {
		t.Fatal(err)
	}

	e.Clock.Advance(eksTransition)
	other := "arn:aws:iam::000000000000:role/payments-api-v2"
	updated, err := c.UpdatePodIdentityAssociation(ctx, &eks.UpdatePodIdentityAssociationInput{ClusterName: apps, AssociationId: aws.String(id), RoleArn: aws.String(other)})
	if err != nil || aws.ToString(updated.Association.RoleArn) != other || !updated.Association.ModifiedAt.After(*updated.Association.CreatedAt) ||
		aws.ToString(updated.Association.Namespace) != "payments" {
		t.Errorf("update = %+v, %v", updated, err)
	}
	described, err := c.DescribePodIdentityAssociation(ctx, &eks.DescribePodIdentityAssociationInput{ClusterName: apps, AssociationId: aws.String(id)})
	if err != nil || aws.ToString(described.Association.RoleArn) != other {
		t.Errorf("describe after the update = %+v, %v", described, err)
	}
	_, err = c.UpdatePodIdentityAssociation(ctx, &eks.UpdatePodIdentityAssociationInput{ClusterName: apps, AssociationId: aws.String("a-00000000000000000"), RoleArn: aws.String(other)})
	wantCode(t, "updating a missing association", err, "ResourceNotFoundException")

	list := func(in *eks.ListPodIdentityAssociationsInput) *eks.ListPodIdentityAssociationsOutput {
		t.Helper()
		in.ClusterName = apps
		out, err := c.ListPodIdentityAssociations(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := list(&eks.ListPodIdentityAssociationsInput{Namespace: aws.String("payments")}).Associations; len(got) != 2 {
		t.Errorf("associations in payments: %+v", got)
	}
	if got := list(&eks.ListPodIdentityAssociationsInput{Namespace: aws.String("payments"), ServiceAccount: aws.String("worker")}).Associations; len(got) != 1 ||
		aws.ToString(got[0].AssociationId) != aws.ToString(worker.AssociationId) || aws.ToString(got[0].ClusterName) != "apps" {
		t.Errorf("associations of payments/worker: %+v", got)
	}
	first := list(&eks.ListPodIdentityAssociationsInput{MaxResults: aws.Int32(2)})
	rest := list(&eks.ListPodIdentityAssociationsInput{MaxResults: aws.Int32(2), NextToken: first.NextToken})
	if len(first.Associations) != 2 || first.NextToken == nil || len(rest.Associations) != 1 || rest.NextToken != nil {
		t.Errorf("pages %+v then %+v", first, rest)
	}

	if _, err := c.TagResource(ctx, &eks.TagResourceInput{ResourceArn: a.AssociationArn, Tags: map[string]string{"env": "prod"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: a.AssociationArn})
	if err != nil || len(tags.Tags) != 2 {
		t.Errorf("the association's tags = %+v, %v", tags, err)
	}
	deleted, err := c.DeletePodIdentityAssociation(ctx, &eks.DeletePodIdentityAssociationInput{ClusterName: apps, AssociationId: aws.String(id)})
	if err != nil || aws.ToString(deleted.Association.AssociationId) != id {
		t.Errorf("delete = %+v, %v", deleted, err)
	}
	_, err = c.DescribePodIdentityAssociation(ctx, &eks.DescribePodIdentityAssociationInput{ClusterName: apps, AssociationId: aws.String(id)})
	wantCode(t, "a deleted association", err, "ResourceNotFoundException")
	if _, err := create("payments", "api", role, ""); err != nil {
		t.Errorf("the service account's association after deleting the old one: %v", err)
	}

	if _, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: apps}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(eksTransition)
	_, err = c.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: worker.AssociationArn})
	wantCode(t, "the tags of an association of a deleted cluster", err, "NotFoundException")
	activeCluster(t, e, c, clusterInput("apps", n))
	if got := list(&eks.ListPodIdentityAssociationsInput{}).Associations; len(got) != 0 {
		t.Errorf("a new cluster of the same name has the old one's associations %+v", got)
	}
}
