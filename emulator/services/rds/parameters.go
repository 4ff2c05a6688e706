package rds

import (
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxModifiedParameters is how many parameters one ModifyDBParameterGroup or
// ResetDBParameterGroup may name.
const maxModifiedParameters = 20

// parameter is one entry of an engine's parameter catalogue: its name, whether a change needs a
// reboot (static) or not (dynamic), its data type, its allowed values (a range lo-hi or a
// comma-separated list; empty for any) and the engine's default value (empty for none).
type parameter struct {
	name, applyType, dataType, allowed, value, description string
}

// The parameters the emulator knows, by engine: the ones tuned most often, with the apply type,
// data type and allowed values AWS documents for them. A name outside the catalogue is refused as
// AWS refuses a name its engine does not have.
var (
	mysqlParameters = []parameter{
		{"binlog_format", "dynamic", "string", "ROW,STATEMENT,MIXED", "ROW", "What form of binary logging the server will use."},
		{"character_set_server", "dynamic", "string", "big5,latin1,utf8,utf8mb4", "", "The server's default character set."},
		{"general_log", "dynamic", "boolean", "0,1", "", "Whether the general query log is enabled."},
		{"innodb_buffer_pool_size", "static", "integer", "5242880-18446744073709551615", "", "The size of the buffer pool (bytes)."},
		{"innodb_lock_wait_timeout", "dynamic", "integer", "1-1073741824", "50", "How long a transaction waits for a row lock (seconds)."},
		{"innodb_log_file_size", "static", "integer", "4194304-549755813888", "", "The size of each log file in a log group (bytes)."},
		{"long_query_time", "dynamic", "float", "0-31536000", "10", "Queries slower than this many seconds are logged."},
		{"max_allowed_packet", "dynamic", "integer", "1024-1073741824", "67108864", "The largest packet or generated string (bytes)."},
		{"max_connections", "dynamic", "integer", "1-100000", "", "The number of simultaneous client connections allowed."},
		{"performance_schema", "static", "boolean", "0,1", "", "Whether the performance schema is enabled."},
		{"slow_query_log", "dynamic", "boolean", "0,1", "", "Whether the slow query log is enabled."},
		{"sql_mode", "dynamic", "list", "", "NO_ENGINE_SUBSTITUTION", "The current SQL server modes."},
		{"time_zone", "dynamic", "string", "", "", "The server's time zone."},
		{"wait_timeout", "dynamic", "integer", "1-31536000", "28800", "How long the server waits for activity on a connection (seconds)."},
	}
	postgresParameters = []parameter{
		{"autovacuum", "dynamic", "boolean", "0,1", "1", "Starts the autovacuum subprocess."},
		{"effective_cache_size", "dynamic", "integer", "1-2147483647", "", "The planner's assumption about the size of the disk cache (8kB)."},
		{"log_min_duration_statement", "dynamic", "integer", "-1-2147483647", "", "Statements slower than this many milliseconds are logged."},
		{"log_statement", "dynamic", "string", "none,ddl,mod,all", "", "Which statements are logged."},
		{"maintenance_work_mem", "dynamic", "integer", "1024-2147483647", "", "The memory for maintenance operations (kB)."},
		{"max_connections", "static", "integer", "6-8388607", "", "The maximum number of concurrent connections."},
		{"random_page_cost", "dynamic", "real", "0-2147483647", "", "The planner's estimate of the cost of a nonsequentially fetched page."},
		{"rds.force_ssl", "dynamic", "boolean", "0,1", "1", "Forces SSL connections."},
		{"shared_buffers", "static", "integer", "16-1073741823", "", "The memory for shared buffers (8kB)."},
		{"shared_preload_libraries", "static", "list", "", "pg_stat_statements", "The libraries preloaded into the server."},
		{"statement_timeout", "dynamic", "integer", "0-2147483647", "", "The longest a statement may run (ms)."},
		{"timezone", "dynamic", "string", "", "UTC", "The time zone for displaying and interpreting time stamps."},
		{"work_mem", "dynamic", "integer", "64-2147483647", "", "The memory for internal sort operations and hash tables (kB)."},
	}
)

// catalogueOf returns the parameters of a DB parameter group family: MySQL's for the mysql,
// mariadb and aurora-mysql families, PostgreSQL's for the postgres and aurora-postgresql ones,
// none for the others.
func catalogueOf(family string) []parameter {
	switch {
	case strings.HasPrefix(family, "mysql"), strings.HasPrefix(family, "mariadb"), strings.HasPrefix(family, "aurora-mysql"):
		return mysqlParameters
	case strings.HasPrefix(family, "postgres"), strings.HasPrefix(family, "aurora-postgresql"):
		return postgresParameters
	}
	return nil
}

// setting is a value a user gave a parameter of a custom group, and how it is applied.
type setting struct {
	value  string
	method types.ApplyMethod
}

// allows reports whether value is one of the parameter's allowed values.
func (p parameter) allows(value string) bool {
	if p.allowed == "" {
		return true
	}
	if lo, hi, ok := rangeOf(p.allowed); ok {
		v, err := strconv.ParseFloat(value, 64)
		return err == nil && v >= lo && v <= hi
	}
	return slices.ContainsFunc(strings.Split(p.allowed, ","), func(a string) bool { return strings.EqualFold(a, value) })
}

// rangeOf reads an allowed range lo-hi (lo may be negative), ok false when allowed is a list.
func rangeOf(allowed string) (lo, hi float64, ok bool) {
	i := strings.Index(allowed[1:], "-")
	if i < 0 || strings.Contains(allowed, ",") {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseFloat(allowed[:i+1], 64)
	hi, err2 := strconv.ParseFloat(allowed[i+2:], 64)
	return lo, hi, err1 == nil && err2 == nil
}

// modifiable returns the custom parameter group (DB or DB cluster, as k says) a Modify or Reset
// request names, or AWS's error for a default group or a missing one. The caller holds the
// backend's mutex.
func (k groupKind[G]) modifiable(r *region, ref *string) (*G, error) {
	name := strings.ToLower(aws.ToString(ref))
	if strings.HasPrefix(name, "default.") {
		return nil, invalidValue("Cannot modify a default parameter group.")
	}
	g, ok := k.groups(r)[name]
	if !ok {
		return nil, k.notFound(aws.ToString(ref))
	}
	return g, nil
}

// checkReset checks a Reset request: ResetAllParameters or up to 20 parameters, not both.
func checkReset(all bool, params []types.Parameter) error {
	if all == (len(params) > 0) {
		return invalidCombination("Either ResetAllParameters or a list of parameters must be given, not both.")
	}
	if len(params) > maxModifiedParameters {
		return invalidValue("Between 1 and %d parameters may be reset in a single request.", maxModifiedParameters)
	}
	return nil
}

// reset returns the parameters named, or all of them, to the engine's defaults.
func (g *paramGroup) reset(all bool, params []types.Parameter) {
	if all {
		g.settings = nil
	}
	for _, p := range params {
		delete(g.settings, aws.ToString(p.ParameterName))
	}
}

// modifyDBParameterGroup sets up to 20 parameters of a custom group, each with its apply method,
// as AWS checks them: a name the family has, a value it allows, and pending-reboot for a static
// parameter. A dynamic parameter applied immediately leaves the instances of the group in sync;
// any other change leaves them pending-reboot until they reboot.
func (b *Backend) modifyDBParameterGroup(call *core.Call, in *rds.ModifyDBParameterGroupInput) (*rds.ModifyDBParameterGroupOutput, error) {
	name, err := b.modifyParameters(call, paramGroups, in.DBParameterGroupName, in.Parameters)
	return &rds.ModifyDBParameterGroupOutput{DBParameterGroupName: name}, err
}

// resetDBParameterGroup returns the parameters a request names, or all of them, to the engine's
// defaults; the instances of the group are then pending-reboot, as a reset may touch static
// parameters.
func (b *Backend) resetDBParameterGroup(call *core.Call, in *rds.ResetDBParameterGroupInput) (*rds.ResetDBParameterGroupOutput, error) {
	name, err := b.resetParameters(call, paramGroups, in.DBParameterGroupName, aws.ToBool(in.ResetAllParameters), in.Parameters)
	return &rds.ResetDBParameterGroupOutput{DBParameterGroupName: name}, err
}

// modifyParameters sets the parameters of a Modify request in the custom parameter group of the
// kind k that ref names, checked against its family's catalogue, and returns the group's name.
// A change that waits for a reboot leaves the users of the group pending-reboot.
func (b *Backend) modifyParameters(call *core.Call, k groupKind[paramGroup], ref *string, params []types.Parameter) (*string, error) {
	return core.Locked(b.state, call, func(r *region) (*string, error) {
		g, err := k.modifiable(r, ref)
		if err != nil {
			return nil, err
		}
		changes, reboot, err := checkSettings(k.catalogue(g.family), params)
		if err != nil {
			return nil, err
		}
		g.apply(changes)
		if reboot {
			k.changed(r, g.name, call.Now)
		}
		return aws.String(g.name), nil
	})
}

// resetParameters returns the parameters a Reset request names, or all of them, of the custom
// parameter group of the kind k that ref names to the engine's defaults, leaves the users of the
// group pending-reboot, and returns the group's name.
func (b *Backend) resetParameters(call *core.Call, k groupKind[paramGroup], ref *string, all bool, params []types.Parameter) (*string, error) {
	if err := checkReset(all, params); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*string, error) {
		g, err := k.modifiable(r, ref)
		if err != nil {
			return nil, err
		}
		g.reset(all, params)
		k.changed(r, g.name, call.Now)
		return aws.String(g.name), nil
	})
}

// checkSettings checks the parameters of a Modify request against a family's catalogue as AWS
// does: a name the family has, a value it allows, an apply method, and pending-reboot for a
// static parameter. It returns the settings, and whether one waits for a reboot.
func checkSettings(catalogue []parameter, params []types.Parameter) (map[string]setting, bool, error) {
	if len(params) == 0 || len(params) > maxModifiedParameters {
		return nil, false, invalidValue("Between 1 and %d parameters may be modified in a single request.", maxModifiedParameters)
	}
	changes := map[string]setting{}
	reboot := false
	for _, p := range params {
		name := aws.ToString(p.ParameterName)
		i := slices.IndexFunc(catalogue, func(c parameter) bool { return c.name == name })
		if i < 0 {
			return nil, false, invalidValue("Could not find parameter with name: %s", name)
		}
		spec := catalogue[i]
		switch {
		case p.ApplyMethod == "":
			return nil, false, invalidValue("Apply method for parameter %s must be specified.", name)
		case p.ApplyMethod == types.ApplyMethodImmediate && spec.applyType == "static":
			return nil, false, invalidCombination("cannot use immediate apply method for static parameter")
		case p.ParameterValue == nil || !spec.allows(*p.ParameterValue):
			return nil, false, invalidValue("Value: %s is not a valid value for parameter: %s", aws.ToString(p.ParameterValue), name)
		}
		changes[name] = setting{value: *p.ParameterValue, method: p.ApplyMethod}
		reboot = reboot || p.ApplyMethod == types.ApplyMethodPendingReboot
	}
	return changes, reboot, nil
}

// apply records settings in the group.
func (g *paramGroup) apply(changes map[string]setting) {
	if g.settings == nil {
		g.settings = map[string]setting{}
	}
	for name, s := range changes {
		g.settings[name] = s
	}
}

// listParameters returns a group's parameters in the catalogue's order, with the values users set
// (Source user) and the engine's defaults (engine-default), those of source only when it is set.
func listParameters(catalogue []parameter, g *paramGroup, source string) []types.Parameter {
	var params []types.Parameter
	for _, p := range catalogue {
		out := types.Parameter{ParameterName: aws.String(p.name), ApplyType: aws.String(p.applyType), DataType: aws.String(p.dataType),
			Description: aws.String(p.description), IsModifiable: aws.Bool(true), Source: aws.String("engine-default"),
			ApplyMethod: types.ApplyMethodPendingReboot}
		if p.allowed != "" {
			out.AllowedValues = aws.String(p.allowed)
		}
		if p.value != "" {
			out.ParameterValue = aws.String(p.value)
		}
		if s, ok := g.settings[p.name]; ok {
			out.ParameterValue, out.Source, out.ApplyMethod = aws.String(s.value), aws.String("user"), s.method
		}
		if source == "" || aws.ToString(out.Source) == source {
			params = append(params, out)
		}
	}
	return params
}

// checkSource checks the Source of a Describe…Parameters request.
func checkSource(source string) error {
	if source != "" && source != "user" && source != "system" && source != "engine-default" {
		return invalidValue("Invalid source: %s. Valid values are user, system and engine-default.", source)
	}
	return nil
}

// describeDBParameters lists a group's parameters in name order, with the values users set
// (Source user) and the engine's defaults (engine-default), filtered by Source when asked, in
// pages of MaxRecords (20 to 100, default 100).
func (b *Backend) describeDBParameters(call *core.Call, in *rds.DescribeDBParametersInput) (*rds.DescribeDBParametersOutput, error) {
	params, err := b.describeParameters(call, paramGroups, in.DBParameterGroupName, in.Source)
	return page(params, err, in.Marker, in.MaxRecords, func(out []types.Parameter, marker *string) *rds.DescribeDBParametersOutput {
		return &rds.DescribeDBParametersOutput{Parameters: out, Marker: marker}
	})
}

// describeParameters returns the parameters of the parameter group of the kind k that ref names
// (a default group too), with the Source a request asks for.
func (b *Backend) describeParameters(call *core.Call, k groupKind[paramGroup], ref, source *string) ([]types.Parameter, error) {
	if err := checkSource(aws.ToString(source)); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) ([]types.Parameter, error) {
		g, ok := k.lookup(r, aws.ToString(ref))
		if !ok {
			return nil, k.notFound(aws.ToString(ref))
		}
		return listParameters(k.catalogue(g.family), g, aws.ToString(source)), nil
	})
}
