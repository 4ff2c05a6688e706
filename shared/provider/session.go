package provider

import (
	"maps"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Session is a ready-to-use AWS configuration for one AWSProvider, with the SDK clients built
// from it. Sessions are cached by the Resolver and shared by every reconcile that uses the same
// provider, so SDK clients are built once per provider version, not once per reconcile.
type Session struct {
	// Config is the AWS configuration: region, credentials, endpoint and metrics middleware.
	Config aws.Config
	// Provider is the AWSProvider or ClusterAWSProvider the session was built from: its spec
	// is current, its status may be stale. It must not be modified.
	Provider v1alpha1.ProviderObject

	key       string
	installID string
	clients   sync.Map
	tagsOnce  sync.Once
	tags      map[string]string
}

// DefaultTags returns the tags every resource created through the session carries besides its
// own: the provider's defaultTags and, when the operator has an install id, the install tag
// (v1alpha1.TagInstallID), which spec tags cannot override (its prefix is reserved). The map
// must not be modified.
func (s *Session) DefaultTags() map[string]string {
	s.tagsOnce.Do(func() {
		s.tags = maps.Clone(s.Provider.ProviderSpec().DefaultTags)
		if s.installID != "" {
			if s.tags == nil {
				s.tags = map[string]string{}
			}
			s.tags[v1alpha1.TagInstallID] = s.installID
		}
	})
	return s.tags
}

// InstallID returns the identity of the operator install the session belongs to, or "".
func (s *Session) InstallID() string { return s.installID }

// Client returns the SDK client named name, building it with build on first use. Drivers call
// it with their service's NewFromConfig, for example
// provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) }).
func Client[T any](s *Session, name string, build func(aws.Config) T) T {
	if c, ok := s.clients.Load(name); ok {
		return c.(T)
	}
	c, _ := s.clients.LoadOrStore(name, build(s.Config))
	return c.(T)
}
