package ecr

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// repository is one private repository and what it holds.
type repository struct {
	name, arn, registryID, uri string
	created                    time.Time
	mutability                 types.ImageTagMutability
	exclusions                 []types.ImageTagMutabilityExclusionFilter
	scanOnPush                 bool
	encryption                 types.EncryptionConfiguration
	// lifecyclePolicy and policy are the policy texts, "" when there is none.
	lifecyclePolicy, policy string
	// images by digest, and the digest each tag names.
	images map[string]*image
	tagged map[string]string
	// layers are the sizes of the uploaded layers by digest, uploads the layer uploads in
	// progress by upload id, and uploadSeq the number of uploads ever opened (layers.go).
	layers    map[string]int64
	uploads   map[string]*upload
	uploadSeq int
}

// namePattern is AWS's pattern of a repository name (CreateRepository, repositoryName).
const namePattern = `(?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*`

// repositoryName matches a whole repository name.
var repositoryName = regexp.MustCompile(`^` + namePattern + `$`)

// checkName returns the InvalidParameterException AWS answers a repository name of the wrong
// length (2 to 256 characters) or form.
func checkName(name string) error {
	switch {
	case len(name) < 2:
		return invalidParameter("repositoryName", "must have length greater than or equal to 2")
	case len(name) > 256:
		return invalidParameter("repositoryName", "must have length less than or equal to 256")
	case !repositoryName.MatchString(name):
		return invalidParameter("repositoryName", "must satisfy regular expression '"+namePattern+"'")
	}
	return nil
}

// describe returns the repository as ECR describes it.
func (r *repository) describe() types.Repository {
	enc := r.encryption
	return types.Repository{
		RepositoryName: aws.String(r.name), RepositoryArn: aws.String(r.arn), RegistryId: aws.String(r.registryID),
		RepositoryUri: aws.String(r.uri), CreatedAt: aws.Time(r.created), ImageTagMutability: r.mutability,
		ImageTagMutabilityExclusionFilters: slices.Clone(r.exclusions),
		ImageScanningConfiguration:         &types.ImageScanningConfiguration{ScanOnPush: r.scanOnPush},
		EncryptionConfiguration:            &enc,
	}
}

// createRepository creates a repository in the caller's registry.
func (b *Backend) createRepository(call *core.Call, in *ecr.CreateRepositoryInput) (*ecr.CreateRepositoryOutput, error) {
	name := aws.ToString(in.RepositoryName)
	if err := checkRegistry(in.RegistryId); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	mutability, exclusions, err := checkMutability(in.ImageTagMutability, in.ImageTagMutabilityExclusionFilters)
	if err != nil {
		return nil, err
	}
	tags, err := core.RequestTags(tagRules, in.Tags, core.TagPair[types.Tag])
	if err != nil {
		return nil, err
	}
	enc, err := b.encryption(call, in.EncryptionConfiguration)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(reg *registry) (*ecr.CreateRepositoryOutput, error) {
		if _, ok := reg.repos[name]; ok {
			return nil, core.Errorf("RepositoryAlreadyExistsException", "The repository with name '%s' already exists in the registry with id '%s'", name, call.Account)
		}
		r := &repository{
			name: name, arn: call.Scope().ARN("ecr", "repository/"+name), registryID: call.Account,
			uri:     call.Account + ".dkr.ecr." + call.Region + ".amazonaws.com/" + name,
			created: call.Now, mutability: mutability, exclusions: exclusions, encryption: enc,
			scanOnPush: in.ImageScanningConfiguration != nil && in.ImageScanningConfiguration.ScanOnPush,
			images:     map[string]*image{}, tagged: map[string]string{}, layers: map[string]int64{}, uploads: map[string]*upload{},
		}
		if err := b.tags.Replace(r.arn, tags); err != nil {
			return nil, err
		}
		reg.repos[name] = r
		d := r.describe()
		return &ecr.CreateRepositoryOutput{Repository: &d}, nil
	})
}

// describeRepositories describes the repositories the request names, or every repository of the
// registry by pages.
func (b *Backend) describeRepositories(call *core.Call, in *ecr.DescribeRepositoriesInput) (*ecr.DescribeRepositoriesOutput, error) {
	if err := checkRegistry(in.RegistryId); err != nil {
		return nil, err
	}
	if len(in.RepositoryNames) > 0 && (in.MaxResults != nil || in.NextToken != nil) {
		return nil, invalidParameter("maxResults", "cannot be specified with repositoryNames")
	}
	size, err := pageSize(in.MaxResults)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(reg *registry) (*ecr.DescribeRepositoriesOutput, error) {
		out := &ecr.DescribeRepositoriesOutput{Repositories: []types.Repository{}}
		if len(in.RepositoryNames) > 0 {
			for _, name := range in.RepositoryNames {
				r, err := lookup(reg, call, in.RegistryId, aws.String(name))
				if err != nil {
					return nil, err
				}
				out.Repositories = append(out.Repositories, r.describe())
			}
			return out, nil
		}
		var names []string
		if in.RegistryId == nil || *in.RegistryId == call.Account {
			names = core.SortedKeys(reg.repos)
		}
		page, next, err := paginate(names, in.NextToken, size)
		if err != nil {
			return nil, err
		}
		for _, name := range page {
			out.Repositories = append(out.Repositories, reg.repos[name].describe())
		}
		out.NextToken = next
		return out, nil
	})
}

// deleteRepository deletes a repository; one that holds images only when forced.
func (b *Backend) deleteRepository(call *core.Call, in *ecr.DeleteRepositoryInput) (*ecr.DeleteRepositoryOutput, error) {
	return core.Locked(b.state, call, func(reg *registry) (*ecr.DeleteRepositoryOutput, error) {
		r, err := lookup(reg, call, in.RegistryId, in.RepositoryName)
		if err != nil {
			return nil, err
		}
		if len(r.images) > 0 && !in.Force {
			return nil, core.Errorf("RepositoryNotEmptyException",
				"The repository with name '%s' in registry with id '%s' cannot be deleted because it still contains images", r.name, r.registryID)
		}
		delete(reg.repos, r.name)
		b.tags.Delete(r.arn)
		d := r.describe()
		return &ecr.DeleteRepositoryOutput{Repository: &d}, nil
	})
}

// checkMutability returns a request's tag mutability (MUTABLE when it names none) and its
// exclusion filters, which the _WITH_EXCLUSION settings need (1 to 5 of them) and the others
// refuse.
func checkMutability(m types.ImageTagMutability, filters []types.ImageTagMutabilityExclusionFilter) (types.ImageTagMutability, []types.ImageTagMutabilityExclusionFilter, error) {
	if m == "" {
		m = types.ImageTagMutabilityMutable
	}
	if !slices.Contains(m.Values(), m) {
		return "", nil, invalidParameter("imageTagMutability", "must be one of "+strings.Join(enumStrings(m.Values()), ", "))
	}
	withExclusion := strings.HasSuffix(string(m), "_WITH_EXCLUSION")
	switch {
	case withExclusion && len(filters) == 0:
		return "", nil, invalidParameter("imageTagMutabilityExclusionFilters", "must be specified when imageTagMutability is "+string(m))
	case !withExclusion && len(filters) > 0:
		return "", nil, invalidParameter("imageTagMutabilityExclusionFilters", "can only be specified when imageTagMutability is IMMUTABLE_WITH_EXCLUSION or MUTABLE_WITH_EXCLUSION")
	case len(filters) > 5:
		return "", nil, invalidParameter("imageTagMutabilityExclusionFilters", "must have length less than or equal to 5")
	}
	for _, f := range filters {
		if f.FilterType != types.ImageTagMutabilityExclusionFilterTypeWildcard {
			return "", nil, invalidParameter("imageTagMutabilityExclusionFilters.filterType", "must be WILDCARD")
		}
		if !exclusionFilter.MatchString(aws.ToString(f.Filter)) {
			return "", nil, invalidParameter("imageTagMutabilityExclusionFilters.filter", "must satisfy regular expression '^[0-9a-zA-Z._*-]{1,128}'")
		}
	}
	return m, slices.Clone(filters), nil
}

// exclusionFilter is the form of a tag mutability exclusion filter: tag characters and the
// wildcard *.
var exclusionFilter = regexp.MustCompile(`^[0-9a-zA-Z._*-]{1,128}$`)

// enumStrings returns the values of an SDK enum as strings.
func enumStrings[E ~string](values []E) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// putImageTagMutability changes a repository's tag mutability.
func (b *Backend) putImageTagMutability(call *core.Call, in *ecr.PutImageTagMutabilityInput) (*ecr.PutImageTagMutabilityOutput, error) {
	if in.ImageTagMutability == "" {
		return nil, invalidParameter("imageTagMutability", "must not be null")
	}
	m, filters, err := checkMutability(in.ImageTagMutability, in.ImageTagMutabilityExclusionFilters)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(reg *registry) (*ecr.PutImageTagMutabilityOutput, error) {
		r, err := lookup(reg, call, in.RegistryId, in.RepositoryName)
		if err != nil {
			return nil, err
		}
		r.mutability, r.exclusions = m, filters
		return &ecr.PutImageTagMutabilityOutput{RegistryId: aws.String(r.registryID), RepositoryName: aws.String(r.name),
			ImageTagMutability: m, ImageTagMutabilityExclusionFilters: slices.Clone(filters)}, nil
	})
}

// putImageScanningConfiguration turns a repository's scan on push on or off.
func (b *Backend) putImageScanningConfiguration(call *core.Call, in *ecr.PutImageScanningConfigurationInput) (*ecr.PutImageScanningConfigurationOutput, error) {
	if in.ImageScanningConfiguration == nil {
		return nil, invalidParameter("imageScanningConfiguration", "must not be null")
	}
	return core.Locked(b.state, call, func(reg *registry) (*ecr.PutImageScanningConfigurationOutput, error) {
		r, err := lookup(reg, call, in.RegistryId, in.RepositoryName)
		if err != nil {
			return nil, err
		}
		r.scanOnPush = in.ImageScanningConfiguration.ScanOnPush
		return &ecr.PutImageScanningConfigurationOutput{RegistryId: aws.String(r.registryID), RepositoryName: aws.String(r.name),
			ImageScanningConfiguration: &types.ImageScanningConfiguration{ScanOnPush: r.scanOnPush}}, nil
	})
}
