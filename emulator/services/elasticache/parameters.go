package elasticache

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxModifiedParameters is how many parameters one ModifyCacheParameterGroup or
// ResetCacheParameterGroup may name.
const maxModifiedParameters = 20

// parameter is one entry of a family's parameter catalogue: its name, when a change takes effect
// (immediate, or requires-reboot of the nodes), its data type, its allowed values (a range lo-hi,
// lo- for no upper bound, or a comma-separated list; empty for any), the engine's default value,
// and whether a custom group may change it.
type parameter struct {
	name        string
	change      types.ChangeType
	dataType    string
	allowed     string
	value       string
	modifiable  bool
	description string
}

// The parameters the emulator knows, by engine (ElastiCache User Guide, Engine specific
// parameters): the ones tuned most often, with the change type, data type, allowed values and
// defaults AWS documents for them. A name outside the catalogue is refused as AWS refuses a name
// its family does not have.
var (
	// redisParameters are the parameters of the Redis OSS and Valkey families.
	redisParameters = []parameter{
		{"activedefrag", types.ChangeTypeImmediate, "string", "yes,no", "no", true, "Enables active memory defragmentation."},
		{"databases", types.ChangeTypeRequiresReboot, "integer", "1-1200000", "16", true, "Set the number of databases."},
		{"lua-time-limit", types.ChangeTypeImmediate, "integer", "5000", "5000", false, "Max execution time of a Lua script in milliseconds."},
		{"maxmemory-policy", types.ChangeTypeImmediate, "string",
			"volatile-lru,allkeys-lru,volatile-lfu,allkeys-lfu,volatile-random,allkeys-random,volatile-ttl,noeviction", "volatile-lru", true,
			"Max memory policy."},
		{"maxmemory-samples", types.ChangeTypeImmediate, "integer", "1-", "3", true, "Max memory samples."},
		{"notify-keyspace-events", types.ChangeTypeImmediate, "string", "", "", true, "The keyspace events for Redis to notify Pub/Sub clients about."},
		{"reserved-memory-percent", types.ChangeTypeImmediate, "integer", "0-100", "25", true, "The percent of memory reserved for non-cache memory usage."},
		{"tcp-keepalive", types.ChangeTypeImmediate, "integer", "0-", "300", true, "If non-zero, send ACKs every given number of seconds."},
		{"timeout", types.ChangeTypeImmediate, "integer", "0-", "0", true, "Close connection if client is idle for a given number of seconds, or never if 0."},
	}
	// memcachedParameters are the parameters of the Memcached families.
	memcachedParameters = []parameter{
		{"binding_protocol", types.ChangeTypeRequiresReboot, "string", "auto,binary,ascii", "auto", true, "Binding protocol."},
		{"chunk_size", types.ChangeTypeRequiresReboot, "integer", "1-", "48", true, "Minimum space allocated for key+value+flags."},
		{"max_item_size", types.ChangeTypeRequiresReboot, "integer", "1048576-1073741824", "1048576", true, "The size of the largest item storable in the cache, in bytes."},
		{"max_simultaneous_connections", types.ChangeTypeRequiresReboot, "integer", "65000", "65000", false, "The maximum number of simultaneous connections."},
	}
)

// families are the cache parameter group families the emulator offers, by name, with the engine
// each is for; a default group default.<family> exists for each.
var families = map[string]string{
	"memcached1.6": "memcached", "redis5.0": "redis", "redis6.x": "redis", "redis7": "redis", "valkey7": "valkey", "valkey8": "valkey",
}

// familyOf returns the parameter group family of an engine version: memcached1.6, redis5.0,
// redis6.x, redis7, valkey7 or valkey8.
func familyOf(engine, version string) string {
	major, _, _ := strings.Cut(version, ".")
	switch {
	case engine == "memcached":
		return "memcached1.6"
	case engine == "redis" && major == "5":
		return "redis5.0"
	case engine == "redis" && major == "6":
		return "redis6.x"
	}
	return engine + major
}

// catalogueOf returns the parameters of a family.
func catalogueOf(family string) []parameter {
	if families[family] == "memcached" {
		return memcachedParameters
	}
	return redisParameters
}

// find returns the catalogue's parameter name, ok false when the family has none such.
func find(family, name string) (parameter, bool) {
	c := catalogueOf(family)
	i := slices.IndexFunc(c, func(p parameter) bool { return p.name == name })
	if i < 0 {
		return parameter{}, false
	}
	return c[i], true
}

// allows reports whether value is one of the parameter's allowed values: a number in its range,
// or one of its list (in any case).
func (p parameter) allows(value string) bool {
	if p.allowed == "" {
		return true
	}
	if p.dataType == "integer" {
		v, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return false
		}
		lo, hi, isRange := strings.Cut(p.allowed, "-")
		if !isRange {
			return value == p.allowed
		}
		min, _ := strconv.ParseInt(lo, 10, 64)
		if hi == "" {
			return v >= min
		}
		top, _ := strconv.ParseInt(hi, 10, 64)
		return v >= min && v <= top
	}
	return slices.ContainsFunc(strings.Split(p.allowed, ","), func(a string) bool { return strings.EqualFold(a, value) })
}

// describe returns the parameter as DescribeCacheParameters shows it, with the value a user set
// when set is true.
func (p parameter) describe(value string, set bool) types.Parameter {
	out := types.Parameter{ParameterName: aws.String(p.name), ChangeType: p.change, DataType: aws.String(p.dataType), Description: aws.String(p.description),
		IsModifiable: aws.Bool(p.modifiable), Source: aws.String("engine-default")}
	if p.allowed != "" {
		out.AllowedValues = aws.String(p.allowed)
	}
	if p.value != "" {
		out.ParameterValue = aws.String(p.value)
	}
	if set {
		out.ParameterValue, out.Source = aws.String(value), aws.String("user")
	}
	return out
}

// checkNames returns the error AWS gives a Modify or Reset request naming no parameter or more
// than 20.
func checkNames(n int, verb string) error {
	if n == 0 || n > maxModifiedParameters {
		return invalidValue("Between 1 and %d parameters may be %s in a single request.", maxModifiedParameters, verb)
	}
	return nil
}

// modifyCacheParameterGroup sets up to 20 parameters of a custom group, as AWS checks them: a
// name the family has, a parameter that can be modified, and a value it allows. A changed value
// of a parameter whose change type is requires-reboot leaves the clusters of the group
// pending-reboot until their nodes reboot (RebootCacheCluster); immediate ones apply at once.
func (b *Backend) modifyCacheParameterGroup(call *core.Call, in *elasticache.ModifyCacheParameterGroupInput) (*elasticache.ModifyCacheParameterGroupOutput, error) {
	if err := checkNames(len(in.ParameterNameValues), "modified"); err != nil {
		return nil, err
	}
	return settledOn(b, call, in.CacheParameterGroupName, (*region).customParamGroup, func(r *region, g *paramGroup) (*elasticache.ModifyCacheParameterGroupOutput, error) {
		changes := map[string]string{}
		for _, p := range in.ParameterNameValues {
			name, value := aws.ToString(p.ParameterName), aws.ToString(p.ParameterValue)
			spec, ok := find(g.family, name)
			switch {
			case !ok:
				return nil, invalidValue("Could not find parameter with name: %s", name)
			case !spec.modifiable:
				return nil, invalidValue("Parameter %s is not modifiable.", name)
			case p.ParameterValue == nil || !spec.allows(value):
				return nil, invalidValue("Value %s is not a valid value for parameter %s. Allowed values: %s", value, name, spec.allowed)
			}
			changes[name] = value
		}
		b.changeParameters(r, g, changes)
		return &elasticache.ModifyCacheParameterGroupOutput{CacheParameterGroupName: aws.String(g.name)}, nil
	})
}

// resetCacheParameterGroup returns the parameters a request names, or all of them
// (ResetAllParameters), to the family's defaults; resetting a requires-reboot parameter that was
// set leaves the clusters of the group pending-reboot.
func (b *Backend) resetCacheParameterGroup(call *core.Call, in *elasticache.ResetCacheParameterGroupInput) (*elasticache.ResetCacheParameterGroupOutput, error) {
	all := aws.ToBool(in.ResetAllParameters)
	if all && len(in.ParameterNameValues) > 0 {
		return nil, invalidCombination("ResetAllParameters and ParameterNameValues cannot both be given.")
	}
	if !all {
		if err := checkNames(len(in.ParameterNameValues), "reset"); err != nil {
			return nil, err
		}
	}
	return settledOn(b, call, in.CacheParameterGroupName, (*region).customParamGroup, func(r *region, g *paramGroup) (*elasticache.ResetCacheParameterGroupOutput, error) {
		changes := map[string]string{}
		names := slices.Collect(maps.Keys(g.settings))
		if !all {
			names = nil
			for _, p := range in.ParameterNameValues {
				names = append(names, aws.ToString(p.ParameterName))
			}
		}
		for _, name := range names {
			spec, ok := find(g.family, name)
			if !ok {
				return nil, invalidValue("Could not find parameter with name: %s", name)
			}
			changes[name] = spec.value
		}
		b.changeParameters(r, g, changes)
		for _, name := range names {
			delete(g.settings, name)
		}
		return &elasticache.ResetCacheParameterGroupOutput{CacheParameterGroupName: aws.String(g.name)}, nil
	})
}

// changeParameters sets values of the group's parameters and marks the group's clusters
// pending-reboot when a requires-reboot parameter's value changes. The caller holds the
// backend's mutex.
func (b *Backend) changeParameters(r *region, g *paramGroup, values map[string]string) {
	reboot := false
	for name, value := range values {
		spec, _ := find(g.family, name)
		cur, set := g.settings[name]
		if !set {
			cur = spec.value
		}
		reboot = reboot || (cur != value && spec.change == types.ChangeTypeRequiresReboot)
		g.settings[name] = value
	}
	if !reboot {
		return
	}
	for _, c := range r.usersOf(g.name) {
		c.rebootPending = true
	}
}

// describeCacheParameters lists a group's parameters in name order, with the values users set
// (Source user) and the family's defaults (engine-default), filtered by Source when asked, in
// pages of MaxRecords (20 to 100, default 100).
func (b *Backend) describeCacheParameters(call *core.Call, in *elasticache.DescribeCacheParametersInput) (*elasticache.DescribeCacheParametersOutput, error) {
	source := aws.ToString(in.Source)
	if source != "" && source != "user" && source != "system" && source != "engine-default" {
		return nil, invalidValue("Invalid source: %s. Valid values are user, system and engine-default.", source)
	}
	return settledOn(b, call, in.CacheParameterGroupName, (*region).lookupParamGroup, func(r *region, g *paramGroup) (*elasticache.DescribeCacheParametersOutput, error) {
		described := map[string]types.Parameter{}
		var names []string
		for _, p := range catalogueOf(g.family) {
			value, set := g.settings[p.name]
			d := p.describe(value, set)
			if source == "" || aws.ToString(d.Source) == source {
				described[p.name], names = d, append(names, p.name)
			}
		}
		params, next, err := describedPage(names, in.Marker, in.MaxRecords, func(name string) types.Parameter { return described[name] })
		return &elasticache.DescribeCacheParametersOutput{Parameters: params, Marker: next, CacheNodeTypeSpecificParameters: []types.CacheNodeTypeSpecificParameter{}}, err
	})
}
