package ecr

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// regionName is the form of a destination region.
var regionName = regexp.MustCompile(`^[0-9a-z-]{2,25}$`)

// filterPattern is AWS's pattern of a replication repository filter.
var filterPattern = regexp.MustCompile(`^[a-z0-9](?:[._/-]?[a-z0-9]+)*$`)

// checkReplication returns the InvalidParameterException AWS gives a replication configuration
// with more than 10 rules, a rule without destinations or with more than 25, a destination that
// is the source registry itself or not a Region and account, or a repository filter that is not
// a PREFIX_MATCH on a repository name prefix (at most 100 per rule).
func checkReplication(call *core.Call, cfg *types.ReplicationConfiguration) error {
	if cfg == nil {
		return invalidParameter("replicationConfiguration", "must not be null")
	}
	if len(cfg.Rules) > 10 {
		return invalidParameter("replicationConfiguration.rules", "must have length less than or equal to 10")
	}
	for _, rule := range cfg.Rules {
		if n := len(rule.Destinations); n < 1 || n > 25 {
			return invalidParameter("replicationConfiguration.rules.destinations", "must have length between 1 and 25")
		}
		for _, d := range rule.Destinations {
			region, registry := aws.ToString(d.Region), aws.ToString(d.RegistryId)
			if !regionName.MatchString(region) || !registryID.MatchString(registry) {
				return invalidParameter("replicationConfiguration.rules.destinations", "must name a Region and a 12-digit registry ID")
			}
			if region == call.Region && registry == call.Account {
				return invalidParameter("replicationConfiguration", "Replication destination cannot be the source registry")
			}
		}
		if len(rule.RepositoryFilters) > 100 {
			return invalidParameter("replicationConfiguration.rules.repositoryFilters", "must have length less than or equal to 100")
		}
		for _, f := range rule.RepositoryFilters {
			if f.FilterType != types.RepositoryFilterTypePrefixMatch || !filterPattern.MatchString(aws.ToString(f.Filter)) {
				return invalidParameter("replicationConfiguration.rules.repositoryFilters", "must be a PREFIX_MATCH on a repository name prefix")
			}
		}
	}
	return nil
}

// describeRegistry describes the caller's registry in the region: its ID and its replication
// configuration (no rules until one is put).
func (b *Backend) describeRegistry(call *core.Call, _ *ecr.DescribeRegistryInput) (*ecr.DescribeRegistryOutput, error) {
	return core.Locked(b.state, call, func(reg *registry) (*ecr.DescribeRegistryOutput, error) {
		rules := append([]types.ReplicationRule{}, reg.replication...)
		return &ecr.DescribeRegistryOutput{RegistryId: aws.String(call.Account), ReplicationConfiguration: &types.ReplicationConfiguration{Rules: rules}}, nil
	})
}

// putReplicationConfiguration replaces the registry's replication configuration. Nothing is
// replicated.
func (b *Backend) putReplicationConfiguration(call *core.Call, in *ecr.PutReplicationConfigurationInput) (*ecr.PutReplicationConfigurationOutput, error) {
	if err := checkReplication(call, in.ReplicationConfiguration); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(reg *registry) (*ecr.PutReplicationConfigurationOutput, error) {
		rules := append([]types.ReplicationRule{}, in.ReplicationConfiguration.Rules...)
		reg.replication = rules
		return &ecr.PutReplicationConfigurationOutput{ReplicationConfiguration: &types.ReplicationConfiguration{Rules: append([]types.ReplicationRule{}, rules...)}}, nil
	})
}
