package rds

import (
	"regexp"
	"slices"
	"strings"
	"time"

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
	name = strings.ToLower(name)
	if g, ok := r.paramGroups[name]; ok {
		return g, true
	}
	family, isDefault := strings.CutPrefix(name, "default.")
	if !isDefault || !isFamily(family) {
		return nil, false
	}
	g := &paramGroup{name: name, arn: r.scope.ARN("rds", "pg:"+name), family: family,
		description: "Default parameter group for " + family}
	r.paramGroups[name] = g
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

// user returns the identifier of a live instance for which uses holds, or "".
func (r *region) user(now time.Time, uses func(*instance) bool) string {
	for _, id := range core.SortedKeys(r.instances) {
		if i := r.instance(id, now); i != nil && uses(i) {
			return i.id
		}
	}
	return ""
}

var (
	subnetGroupName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9._ -]{0,254}$`)
	subnetID        = regexp.MustCompile(`^subnet-([0-9a-f]{8}|[0-9a-f]{17})$`)
)

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
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	if _, ok := r.subnetGroups[name]; ok {
		return nil, core.Errorf("DBSubnetGroupAlreadyExists", "The DB subnet group '%s' already exists.", name)
	}
	g := &subnetGroup{name: name, arn: r.scope.ARN("rds", "subgrp:"+name), description: aws.ToString(in.DBSubnetGroupDescription),
		subnets: subnets}
	if err := r.tags.Merge(requestTags(in.Tags), g.arn); err != nil {
		return nil, err
	}
	r.subnetGroups[name] = g
	return &rds.CreateDBSubnetGroupOutput{DBSubnetGroup: g.describe(call.Region)}, nil
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
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	g, ok := r.subnetGroups[name]
	if !ok {
		return nil, subnetGroupNotFound(aws.ToString(in.DBSubnetGroupName))
	}
	g.subnets = subnets
	if in.DBSubnetGroupDescription != nil {
		g.description = *in.DBSubnetGroupDescription
	}
	return &rds.ModifyDBSubnetGroupOutput{DBSubnetGroup: g.describe(call.Region)}, nil
}

// describeDBSubnetGroups ignores Filters, which AWS documents as not supported.
func (b *Backend) describeDBSubnetGroups(call *core.Call, in *rds.DescribeDBSubnetGroupsInput) (*rds.DescribeDBSubnetGroupsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	names := core.SortedKeys(r.subnetGroups)
	if in.DBSubnetGroupName != nil {
		name := strings.ToLower(*in.DBSubnetGroupName)
		if _, ok := r.subnetGroups[name]; !ok {
			return nil, subnetGroupNotFound(*in.DBSubnetGroupName)
		}
		names = []string{name}
	}
	var groups []types.DBSubnetGroup
	for _, name := range names {
		groups = append(groups, *r.subnetGroups[name].describe(call.Region))
	}
	return page(groups, in.Marker, in.MaxRecords, func(out []types.DBSubnetGroup, marker *string) *rds.DescribeDBSubnetGroupsOutput {
		return &rds.DescribeDBSubnetGroupsOutput{DBSubnetGroups: out, Marker: marker}
	})
}

func (b *Backend) deleteDBSubnetGroup(call *core.Call, in *rds.DeleteDBSubnetGroupInput) (*rds.DeleteDBSubnetGroupOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	name := strings.ToLower(aws.ToString(in.DBSubnetGroupName))
	if _, ok := r.subnetGroups[name]; !ok {
		return nil, subnetGroupNotFound(aws.ToString(in.DBSubnetGroupName))
	}
	if id := r.user(call.Now, func(i *instance) bool { return i.subnetGroup == name || aws.ToString(i.pending.subnetGroup) == name }); id != "" {
		return nil, core.Errorf("InvalidDBSubnetGroupStateFault", "Cannot delete the subnet group '%s' because at least one database instance: %s is still using it.", name, id)
	}
	r.tags.Delete(r.subnetGroups[name].arn)
	delete(r.subnetGroups, name)
	return &rds.DeleteDBSubnetGroupOutput{}, nil
}

func (g *paramGroup) describe() types.DBParameterGroup {
	return types.DBParameterGroup{DBParameterGroupName: aws.String(g.name), DBParameterGroupFamily: aws.String(g.family),
		Description: aws.String(g.description), DBParameterGroupArn: aws.String(g.arn)}
}

func (b *Backend) createDBParameterGroup(call *core.Call, in *rds.CreateDBParameterGroupInput) (*rds.CreateDBParameterGroupOutput, error) {
	name, err := checkIdentifier("DBParameterGroupName", aws.ToString(in.DBParameterGroupName), 255)
	if err != nil {
		return nil, err
	}
	family := aws.ToString(in.DBParameterGroupFamily)
	if !isFamily(family) {
		return nil, invalidValue("Invalid DB parameter group family: %s", family)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	if _, ok := r.paramGroups[name]; ok {
		return nil, core.Errorf("DBParameterGroupAlreadyExists", "Parameter group %s already exists", name)
	}
	g := &paramGroup{name: name, arn: r.scope.ARN("rds", "pg:"+name), family: family, description: aws.ToString(in.Description)}
	if err := r.tags.Merge(requestTags(in.Tags), g.arn); err != nil {
		return nil, err
	}
	r.paramGroups[name] = g
	out := g.describe()
	return &rds.CreateDBParameterGroupOutput{DBParameterGroup: &out}, nil
}

// describeDBParameterGroups ignores Filters, which AWS documents as not supported.
func (b *Backend) describeDBParameterGroups(call *core.Call, in *rds.DescribeDBParameterGroupsInput) (*rds.DescribeDBParameterGroupsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	names := core.SortedKeys(r.paramGroups)
	if in.DBParameterGroupName != nil {
		g, ok := r.paramGroup(*in.DBParameterGroupName)
		if !ok {
			return nil, paramGroupNotFound(*in.DBParameterGroupName)
		}
		names = []string{g.name}
	}
	var groups []types.DBParameterGroup
	for _, name := range names {
		groups = append(groups, r.paramGroups[name].describe())
	}
	return page(groups, in.Marker, in.MaxRecords, func(out []types.DBParameterGroup, marker *string) *rds.DescribeDBParameterGroupsOutput {
		return &rds.DescribeDBParameterGroupsOutput{DBParameterGroups: out, Marker: marker}
	})
}

func (b *Backend) deleteDBParameterGroup(call *core.Call, in *rds.DeleteDBParameterGroupInput) (*rds.DeleteDBParameterGroupOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	name := strings.ToLower(aws.ToString(in.DBParameterGroupName))
	if strings.HasPrefix(name, "default.") {
		return nil, core.Errorf("InvalidDBParameterGroupState", "Default DBParameterGroup cannot be deleted: %s", name)
	}
	if _, ok := r.paramGroups[name]; !ok {
		return nil, paramGroupNotFound(aws.ToString(in.DBParameterGroupName))
	}
	if r.user(call.Now, func(i *instance) bool { return i.paramGroup == name || aws.ToString(i.pending.paramGroup) == name }) != "" {
		return nil, core.Errorf("InvalidDBParameterGroupState",
			"One or more database instances are still members of this parameter group %s, so the group cannot be deleted", name)
	}
	r.tags.Delete(r.paramGroups[name].arn)
	delete(r.paramGroups, name)
	return &rds.DeleteDBParameterGroupOutput{}, nil
}

func (g *optionGroup) describe() types.OptionGroup {
	return types.OptionGroup{OptionGroupName: aws.String(g.name), OptionGroupDescription: aws.String(g.description),
		EngineName: aws.String(g.engine), MajorEngineVersion: aws.String(g.major), OptionGroupArn: aws.String(g.arn),
		AllowsVpcAndNonVpcInstanceMemberships: aws.Bool(true), Options: []types.Option{}}
}

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
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	if _, ok := r.optionGroups[name]; ok {
		return nil, core.Errorf("OptionGroupAlreadyExistsFault", "Option Group %s already exists.", name)
	}
	g := &optionGroup{name: name, arn: r.scope.ARN("rds", "og:"+name), engine: e.name, major: major,
		description: aws.ToString(in.OptionGroupDescription)}
	if err := r.tags.Merge(requestTags(in.Tags), g.arn); err != nil {
		return nil, err
	}
	r.optionGroups[name] = g
	out := g.describe()
	return &rds.CreateOptionGroupOutput{OptionGroup: &out}, nil
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
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	names := core.SortedKeys(r.optionGroups)
	if in.OptionGroupName != nil {
		g, ok := r.optionGroup(*in.OptionGroupName)
		if !ok {
			return nil, optionGroupNotFound(*in.OptionGroupName)
		}
		names = []string{g.name}
	}
	var groups []types.OptionGroup
	for _, name := range names {
		g := r.optionGroups[name]
		if (in.EngineName == nil || *in.EngineName == g.engine) && (in.MajorEngineVersion == nil || *in.MajorEngineVersion == g.major) {
			groups = append(groups, g.describe())
		}
	}
	return page(groups, in.Marker, in.MaxRecords, func(out []types.OptionGroup, marker *string) *rds.DescribeOptionGroupsOutput {
		return &rds.DescribeOptionGroupsOutput{OptionGroupsList: out, Marker: marker}
	})
}

func (b *Backend) deleteOptionGroup(call *core.Call, in *rds.DeleteOptionGroupInput) (*rds.DeleteOptionGroupOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	name := strings.ToLower(aws.ToString(in.OptionGroupName))
	if strings.HasPrefix(name, "default:") {
		return nil, core.Errorf("InvalidOptionGroupStateFault", "Default option group %s cannot be deleted.", name)
	}
	if _, ok := r.optionGroups[name]; !ok {
		return nil, optionGroupNotFound(aws.ToString(in.OptionGroupName))
	}
	if r.user(call.Now, func(i *instance) bool { return i.optionGroup == name || aws.ToString(i.pending.optionGroup) == name }) != "" {
		return nil, core.Errorf("InvalidOptionGroupStateFault", "The option group '%s' cannot be deleted because it is in use.", name)
	}
	r.tags.Delete(r.optionGroups[name].arn)
	delete(r.optionGroups, name)
	return &rds.DeleteOptionGroupOutput{}, nil
}
