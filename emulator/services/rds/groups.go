package rds

import (
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// subnetGroup is one DB subnet group.
type subnetGroup struct {
	name, arn, description string
	subnets                []string
}

// paramGroup is one DB parameter group: a custom one, or a default one (default.<family>),
// which exists as soon as something names it, as AWS creates default groups on first use.
type paramGroup struct {
	name, arn, family, description string
	settings                       map[string]setting // the parameters users set, by name
}

// optionGroup is one option group, custom or default (default:<engine>-<major>).
type optionGroup struct {
	name, arn, engine, major, description string
}

// zoneOf returns the availability zone the emulator gives the n-th subnet of a subnet group.
func zoneOf(region string, n int) string { return region + string(rune('a'+n%6)) }

// describe returns the subnet group as RDS reports it.
func (g *subnetGroup) describe(region string) *types.DBSubnetGroup {
	out := &types.DBSubnetGroup{DBSubnetGroupName: aws.String(g.name), DBSubnetGroupDescription: aws.String(g.description),
		DBSubnetGroupArn: aws.String(g.arn), SubnetGroupStatus: aws.String("Complete"), SupportedNetworkTypes: []string{"IPV4"}}
	for n, id := range g.subnets {
		out.Subnets = append(out.Subnets, types.Subnet{SubnetIdentifier: aws.String(id), SubnetStatus: aws.String("Active"),
			SubnetAvailabilityZone: &types.AvailabilityZone{Name: aws.String(zoneOf(region, n))}})
	}
	return out
}

func subnetGroupNotFound(name string) *core.APIError {
	return core.NotFoundf("DBSubnetGroupNotFoundFault", "DBSubnetGroup %s not found.", name)
}

func paramGroupNotFound(name string) *core.APIError {
	return core.NotFoundf("DBParameterGroupNotFound", "DBParameterGroup not found: %s", name)
}

func optionGroupNotFound(name string) *core.APIError {
	return core.NotFoundf("OptionGroupNotFoundFault", "Specified OptionGroupName: %s not found.", name)
}

// paramGroup returns the parameter group named name, making a default one exist when named.
func (r *region) paramGroup(name string) (*paramGroup, bool) {
	return r.namedParamGroup(r.paramGroups, strings.ToLower(name), "pg", "Default parameter group for ", isFamily)
}

// namedParamGroup returns the group of groups named name (lowercased), making the default group
// of a family that known accepts (default.<family>) exist when named: its ARN of resource type
// resource, and its description label followed by the family.
func (r *region) namedParamGroup(groups map[string]*paramGroup, name, resource, label string, known func(string) bool) (*paramGroup, bool) {
	if g, ok := groups[name]; ok {
		return g, true
	}
	family, isDefault := strings.CutPrefix(name, "default.")
	if !isDefault || !known(family) {
		return nil, false
	}
	g := &paramGroup{name: name, arn: r.scope.ARN("rds", resource+":"+name), family: family, description: label + family}
	groups[name] = g
	return g, true
}

// optionGroup returns the option group named name, making a default one exist when named.
func (r *region) optionGroup(name string) (*optionGroup, bool) {
	name = strings.ToLower(name)
	if g, ok := r.optionGroups[name]; ok {
		return g, true
	}
	for _, e := range engines {
		for major, version := range e.majors {
			if name == e.defaultOptionGroup(version) {
				g := &optionGroup{name: name, arn: r.scope.ARN("rds", "og:"+name), engine: e.name, major: major,
					description: "Default option group for " + e.name + " " + major}
				r.optionGroups[name] = g
				return g, true
			}
		}
	}
	return nil, false
}

// paramGroupFor returns the parameter group an instance of an engine version gets when it asks
// for name: the version's default group when name is empty.
func (r *region) paramGroupFor(e *engine, version, name string) (string, error) {
	if name == "" {
		name = e.defaultParamGroup(version)
	}
	g, ok := r.paramGroup(name)
	if !ok {
		return "", paramGroupNotFound(name)
	}
	if want := e.family(e.major(version)); g.family != want {
		return "", invalidCombination("The parameter group %s with DBParameterGroupFamily %s cannot be used for this instance. "+
			"Please use a Parameter Group with DBParameterGroupFamily %s", g.name, g.family, want)
	}
	return g.name, nil
}

// optionGroupFor returns the option group an instance of an engine version gets when it asks
// for name: the version's default group when name is empty.
func (r *region) optionGroupFor(e *engine, version, name string) (string, error) {
	if name == "" {
		name = e.defaultOptionGroup(version)
	}
	g, ok := r.optionGroup(name)
	if !ok {
		return "", optionGroupNotFound(name)
	}
	if g.engine != e.name || g.major != e.major(version) {
		return "", invalidCombination("The option group %s is for %s %s and cannot be used with %s %s.", g.name, g.engine, g.major, e.name, version)
	}
	return g.name, nil
}

var (
	subnetGroupName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9._ -]{0,254}$`)
	subnetID        = regexp.MustCompile(`^subnet-([0-9a-f]{8}|[0-9a-f]{17})$`)
)

// createDBSubnetGroup creates a DB subnet group of at least two subnets, with its tags.
func (b *Backend) createDBSubnetGroup(call *core.Call, in *rds.CreateDBSubnetGroupInput) (*rds.CreateDBSubnetGroupOutput, error) {
	name := strings.ToLower(aws.ToString(in.DBSubnetGroupName))
	if !subnetGroupName.MatchString(name) || name == "default" {
		return nil, invalidValue("Invalid DB subnet group name: %s. It must be 1 to 255 letters, digits, periods, underscores, spaces or hyphens, "+
			"start with a letter, and not be default.", name)
	}
	subnets, err := groupSubnets(call, in.SubnetIds)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*rds.CreateDBSubnetGroupOutput, error) {
		g := &subnetGroup{name: name, arn: r.scope.ARN("rds", "subgrp:"+name), description: aws.ToString(in.DBSubnetGroupDescription),
			subnets: subnets}
		if err := subnetGroups.add(r, name, g, in.Tags); err != nil {
			return nil, err
		}
		return &rds.CreateDBSubnetGroupOutput{DBSubnetGroup: g.describe(call.Region)}, nil
	})
}

// groupSubnets returns the subnets of a subnet group, duplicates dropped, refusing a subnet id
// of the wrong form and fewer subnets than the two zones a group must cover.
func groupSubnets(call *core.Call, ids []string) ([]string, error) {
	var subnets []string
	for _, id := range ids {
		if !subnetID.MatchString(id) {
			return nil, core.Errorf("InvalidSubnet", "Some input subnets in :[%s] are invalid.", id)
		}
		if !slices.Contains(subnets, id) {
			subnets = append(subnets, id)
		}
	}
	if len(subnets) < 2 {
		return nil, core.Errorf("DBSubnetGroupDoesNotCoverEnoughAZs", "The DB subnet group doesn't meet Availability Zone (AZ) coverage requirement. "+
			"Current AZ coverage: %s. Add subnets to cover at least 2 AZs.", zoneOf(call.Region, 0))
	}
	return subnets, nil
}

// modifyDBSubnetGroup replaces the subnets of a subnet group (and its description when given).
// The default group cannot be changed.
func (b *Backend) modifyDBSubnetGroup(call *core.Call, in *rds.ModifyDBSubnetGroupInput) (*rds.ModifyDBSubnetGroupOutput, error) {
	name := strings.ToLower(aws.ToString(in.DBSubnetGroupName))
	if name == "default" {
		return nil, invalidValue("The default DB subnet group cannot be modified.")
	}
	subnets, err := groupSubnets(call, in.SubnetIds)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*rds.ModifyDBSubnetGroupOutput, error) {
		g, ok := r.subnetGroups[name]
		if !ok {
			return nil, subnetGroupNotFound(aws.ToString(in.DBSubnetGroupName))
		}
		g.subnets = subnets
		if in.DBSubnetGroupDescription != nil {
			g.description = *in.DBSubnetGroupDescription
		}
		return &rds.ModifyDBSubnetGroupOutput{DBSubnetGroup: g.describe(call.Region)}, nil
	})
}

// describeDBSubnetGroups ignores Filters, which AWS documents as not supported.
func (b *Backend) describeDBSubnetGroups(call *core.Call, in *rds.DescribeDBSubnetGroupsInput) (*rds.DescribeDBSubnetGroupsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBSubnetGroupsOutput, error) {
		groups, err := describedGroups(subnetGroups, r, in.DBSubnetGroupName, func(name string) (*subnetGroup, bool) {
			g, ok := r.subnetGroups[strings.ToLower(name)]
			return g, ok
		}, nil, func(g *subnetGroup) types.DBSubnetGroup { return *g.describe(call.Region) })
		return page(groups, err, in.Marker, in.MaxRecords, func(out []types.DBSubnetGroup, marker *string) *rds.DescribeDBSubnetGroupsOutput {
			return &rds.DescribeDBSubnetGroupsOutput{DBSubnetGroups: out, Marker: marker}
		})
	})
}

// deleteDBSubnetGroup deletes a DB subnet group that no instance uses.
func (b *Backend) deleteDBSubnetGroup(call *core.Call, in *rds.DeleteDBSubnetGroupInput) (*rds.DeleteDBSubnetGroupOutput, error) {
	return &rds.DeleteDBSubnetGroupOutput{}, subnetGroups.delete(b, call, in.DBSubnetGroupName)
}

func (g *paramGroup) describe() types.DBParameterGroup {
	return types.DBParameterGroup{DBParameterGroupName: aws.String(g.name), DBParameterGroupFamily: aws.String(g.family),
		Description: aws.String(g.description), DBParameterGroupArn: aws.String(g.arn)}
}

// createDBParameterGroup creates a custom DB parameter group of a family, with its tags.
func (b *Backend) createDBParameterGroup(call *core.Call, in *rds.CreateDBParameterGroupInput) (*rds.CreateDBParameterGroupOutput, error) {
	g, err := b.createParamGroup(call, paramGroups, in.DBParameterGroupName, in.DBParameterGroupFamily, in.Description, in.Tags)
	if err != nil {
		return nil, err
	}
	out := g.describe()
	return &rds.CreateDBParameterGroupOutput{DBParameterGroup: &out}, nil
}

// describeDBParameterGroups ignores Filters, which AWS documents as not supported.
func (b *Backend) describeDBParameterGroups(call *core.Call, in *rds.DescribeDBParameterGroupsInput) (*rds.DescribeDBParameterGroupsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBParameterGroupsOutput, error) {
		groups, err := describedGroups(paramGroups, r, in.DBParameterGroupName, r.paramGroup, nil, (*paramGroup).describe)
		return page(groups, err, in.Marker, in.MaxRecords, func(out []types.DBParameterGroup, marker *string) *rds.DescribeDBParameterGroupsOutput {
			return &rds.DescribeDBParameterGroupsOutput{DBParameterGroups: out, Marker: marker}
		})
	})
}

// deleteDBParameterGroup deletes a custom DB parameter group that no instance uses.
func (b *Backend) deleteDBParameterGroup(call *core.Call, in *rds.DeleteDBParameterGroupInput) (*rds.DeleteDBParameterGroupOutput, error) {
	return &rds.DeleteDBParameterGroupOutput{}, paramGroups.delete(b, call, in.DBParameterGroupName)
}

// describeCluster returns a DB cluster parameter group as its operations report it.
func (g *paramGroup) describeCluster() types.DBClusterParameterGroup {
	return types.DBClusterParameterGroup{DBClusterParameterGroupName: aws.String(g.name), DBParameterGroupFamily: aws.String(g.family),
		Description: aws.String(g.description), DBClusterParameterGroupArn: aws.String(g.arn)}
}

// createDBClusterParameterGroup creates a custom DB cluster parameter group of an Aurora family,
// with its tags.
func (b *Backend) createDBClusterParameterGroup(call *core.Call, in *rds.CreateDBClusterParameterGroupInput) (*rds.CreateDBClusterParameterGroupOutput, error) {
	g, err := b.createParamGroup(call, clusterParamGroups, in.DBClusterParameterGroupName, in.DBParameterGroupFamily, in.Description, in.Tags)
	if err != nil {
		return nil, err
	}
	out := g.describeCluster()
	return &rds.CreateDBClusterParameterGroupOutput{DBClusterParameterGroup: &out}, nil
}

// describeDBClusterParameterGroups ignores Filters, which AWS documents as not supported.
func (b *Backend) describeDBClusterParameterGroups(call *core.Call, in *rds.DescribeDBClusterParameterGroupsInput) (*rds.DescribeDBClusterParameterGroupsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBClusterParameterGroupsOutput, error) {
		groups, err := describedGroups(clusterParamGroups, r, in.DBClusterParameterGroupName, r.clusterParamGroup, nil, (*paramGroup).describeCluster)
		return page(groups, err, in.Marker, in.MaxRecords, func(out []types.DBClusterParameterGroup, marker *string) *rds.DescribeDBClusterParameterGroupsOutput {
			return &rds.DescribeDBClusterParameterGroupsOutput{DBClusterParameterGroups: out, Marker: marker}
		})
	})
}

// deleteDBClusterParameterGroup deletes a custom DB cluster parameter group that no cluster uses.
func (b *Backend) deleteDBClusterParameterGroup(call *core.Call, in *rds.DeleteDBClusterParameterGroupInput) (*rds.DeleteDBClusterParameterGroupOutput, error) {
	return &rds.DeleteDBClusterParameterGroupOutput{}, clusterParamGroups.delete(b, call, in.DBClusterParameterGroupName)
}

func (g *optionGroup) describe() types.OptionGroup {
	return types.OptionGroup{OptionGroupName: aws.String(g.name), OptionGroupDescription: aws.String(g.description),
		EngineName: aws.String(g.engine), MajorEngineVersion: aws.String(g.major), OptionGroupArn: aws.String(g.arn),
		AllowsVpcAndNonVpcInstanceMemberships: aws.Bool(true), Options: []types.Option{}}
}

// createOptionGroup creates an option group for an engine's major version, with its tags.
func (b *Backend) createOptionGroup(call *core.Call, in *rds.CreateOptionGroupInput) (*rds.CreateOptionGroupOutput, error) {
	name, err := checkIdentifier("OptionGroupName", aws.ToString(in.OptionGroupName), 255)
	if err != nil {
		return nil, err
	}
	e, err := lookupEngine(aws.ToString(in.EngineName))
	if err != nil {
		return nil, err
	}
	major := aws.ToString(in.MajorEngineVersion)
	if _, ok := e.majors[major]; !ok {
		return nil, invalidCombination("Cannot find major version %s for %s", major, e.name)
	}
	return core.Locked(b.state, call, func(r *region) (*rds.CreateOptionGroupOutput, error) {
		g := &optionGroup{name: name, arn: r.scope.ARN("rds", "og:"+name), engine: e.name, major: major,
			description: aws.ToString(in.OptionGroupDescription)}
		if err := optionGroups.add(r, name, g, in.Tags); err != nil {
			return nil, err
		}
		out := g.describe()
		return &rds.CreateOptionGroupOutput{OptionGroup: &out}, nil
	})
}

// describeOptionGroups lists option groups by name, or by engine and major version; it ignores
// Filters, which AWS documents as not supported.
func (b *Backend) describeOptionGroups(call *core.Call, in *rds.DescribeOptionGroupsInput) (*rds.DescribeOptionGroupsOutput, error) {
	if in.OptionGroupName != nil && (in.EngineName != nil || in.MajorEngineVersion != nil) {
		return nil, invalidCombination("OptionGroupName can't be supplied together with EngineName or MajorEngineVersion.")
	}
	if in.MajorEngineVersion != nil && in.EngineName == nil {
		return nil, invalidCombination("EngineName must be specified with MajorEngineVersion.")
	}
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeOptionGroupsOutput, error) {
		groups, err := describedGroups(optionGroups, r, in.OptionGroupName, r.optionGroup, func(g *optionGroup) bool {
			return (in.EngineName == nil || *in.EngineName == g.engine) && (in.MajorEngineVersion == nil || *in.MajorEngineVersion == g.major)
		}, (*optionGroup).describe)
		return page(groups, err, in.Marker, in.MaxRecords, func(out []types.OptionGroup, marker *string) *rds.DescribeOptionGroupsOutput {
			return &rds.DescribeOptionGroupsOutput{OptionGroupsList: out, Marker: marker}
		})
	})
}

// deleteOptionGroup deletes a custom option group that no instance uses.
func (b *Backend) deleteOptionGroup(call *core.Call, in *rds.DeleteOptionGroupInput) (*rds.DeleteOptionGroupOutput, error) {
	return &rds.DeleteOptionGroupOutput{}, optionGroups.delete(b, call, in.OptionGroupName)
}
