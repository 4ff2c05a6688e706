package ec2util

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Client returns the provider session's EC2 client, one per session.
func Client(s *provider.Session) *ec2.Client {
	return provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
}

// Source reads one type of EC2 resource for one provider session: from the session's listing
// at periodic syncs, directly otherwise.
type Source[T any] struct {
	Describer[T]
	listing *managed.Listing[T]
}

// For returns d's source for session s. Every object of the kind under one provider shares
// the session's listing.
func (d Describer[T]) For(s *provider.Session) Source[T] {
	return Source[T]{Describer: d, listing: provider.Client(s, "ec2/"+d.What+"-listing", func(aws.Config) *managed.Listing[T] { return d.Listing() })}
}

// Find returns o's resource (see Describer.Find).
func (s Source[T]) Find(ctx context.Context, o shared.Managed) (T, bool, error) {
	return s.Describer.Find(ctx, s.listing, o)
}
