package rds

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The parameters of DB cluster parameter groups the emulator knows, by engine: cluster-level
// parameters tuned most often, with the apply type, data type, allowed values and defaults AWS
// documents for them (Amazon Aurora User Guide, Aurora PostgreSQL and Aurora MySQL parameters).
var (
	auroraPostgresClusterParameters = []parameter{
		{"log_min_duration_statement", "dynamic", "integer", "-1-2147483647", "", "Statements slower than this many milliseconds are logged."},
		{"log_statement", "dynamic", "string", "none,ddl,mod,all", "", "Which statements are logged."},
		{"password_encryption", "dynamic", "string", "md5,scram-sha-256", "scram-sha-256", "How passwords are encrypted."},
		{"rds.force_ssl", "dynamic", "boolean", "0,1", "1", "Forces SSL connections."},
		{"rds.logical_replication", "static", "boolean", "0,1", "0", "Enables logical decoding."},
		{"shared_preload_libraries", "static", "list", "", "pg_stat_statements", "The libraries preloaded into the server."},
		{"ssl_min_protocol_version", "dynamic", "string", "TLSv1,TLSv1.1,TLSv1.2,TLSv1.3", "TLSv1.2", "The minimum SSL/TLS protocol version to use."},
		{"timezone", "dynamic", "string", "", "UTC", "The time zone for displaying and interpreting time stamps."},
		{"track_commit_timestamp", "static", "boolean", "0,1", "0", "Collects transaction commit time."},
	}
	auroraMySQLClusterParameters = []parameter{
		{"aurora_parallel_query", "dynamic", "boolean", "0,1", "", "Enables parallel query."},
		{"binlog_format", "static", "string", "ROW,STATEMENT,MIXED,OFF", "OFF", "What form of binary logging the server will use."},
		{"binlog_row_image", "dynamic", "string", "full,minimal,noblob", "", "Whether row images are logged in full."},
		{"character_set_server", "dynamic", "string", "big5,latin1,utf8,utf8mb4", "", "The server's default character set."},
		{"collation_server", "dynamic", "string", "", "", "The server's default collation."},
		{"innodb_print_all_deadlocks", "dynamic", "boolean", "0,1", "", "Records every deadlock in the error log."},
		{"lower_case_table_names", "static", "integer", "0,1", "", "How table names are stored and compared."},
		{"require_secure_transport", "dynamic", "boolean", "ON,OFF", "OFF", "Requires clients to connect with TLS."},
		{"server_audit_logging", "dynamic", "boolean", "0,1", "0", "Enables Advanced Auditing."},
		{"time_zone", "dynamic", "string", "", "", "The server's time zone."},
	}
)

// clusterCatalogueOf returns the parameters of a DB cluster parameter group family.
func clusterCatalogueOf(family string) []parameter {
	if strings.HasPrefix(family, "aurora-mysql") {
		return auroraMySQLClusterParameters
	}
	return auroraPostgresClusterParameters
}

// isClusterFamily reports whether family is the DB cluster parameter group family of an Aurora
// major version: aurora-postgresql15 to 17, aurora-mysql8.0.
func isClusterFamily(family string) bool {
	for _, name := range []string{"aurora-postgresql", "aurora-mysql"} {
		e := engines[name]
		for major := range e.majors {
			if e.family(major) == family {
				return true
			}
		}
	}
	return false
}

func clusterParamGroupNotFound(name string) *core.APIError {
	return core.NotFoundf("DBParameterGroupNotFound", "DBClusterParameterGroup not found: %s", name)
}

// clusterParamGroup returns the DB cluster parameter group named name, making a default one
// (default.<family>) exist when named.
func (r *region) clusterParamGroup(name string) (*paramGroup, bool) {
	name = strings.ToLower(r.nameFromARN(name, "cluster-pg"))
	return r.namedParamGroup(r.clusterParamGroups, name, "cluster-pg", "Default cluster parameter group for ", isClusterFamily)
}

// clusterParamGroupFor returns the DB cluster parameter group a cluster of an engine version
// gets when it asks for name: the version's default group when name is empty.
func (r *region) clusterParamGroupFor(e *engine, version, name string) (string, error) {
	if name == "" {
		name = e.defaultParamGroup(version)
	}
	g, ok := r.clusterParamGroup(name)
	if !ok {
		return "", core.NotFoundf("DBClusterParameterGroupNotFound", "DBClusterParameterGroup not found: %s", name)
	}
	if want := e.family(e.major(version)); g.family != want {
		return "", invalidCombination("The DB cluster parameter group %s with family %s cannot be used for this cluster. "+
			"Please use a DB cluster parameter group with family %s", g.name, g.family, want)
	}
	return g.name, nil
}

// modifyDBClusterParameterGroup sets up to 20 parameters of a custom group, checked as
// ModifyDBParameterGroup checks them. A change that waits for a reboot leaves the members of the
// group's clusters pending-reboot (DBClusterParameterGroupStatus) until they reboot.
func (b *Backend) modifyDBClusterParameterGroup(call *core.Call, in *rds.ModifyDBClusterParameterGroupInput) (*rds.ModifyDBClusterParameterGroupOutput, error) {
	name, err := b.modifyParameters(call, clusterParamGroups, in.DBClusterParameterGroupName, in.Parameters)
	return &rds.ModifyDBClusterParameterGroupOutput{DBClusterParameterGroupName: name}, err
}

// resetDBClusterParameterGroup returns the parameters a request names, or all of them, to the
// engine's defaults; the members of the group's clusters are then pending-reboot.
func (b *Backend) resetDBClusterParameterGroup(call *core.Call, in *rds.ResetDBClusterParameterGroupInput) (*rds.ResetDBClusterParameterGroupOutput, error) {
	name, err := b.resetParameters(call, clusterParamGroups, in.DBClusterParameterGroupName, aws.ToBool(in.ResetAllParameters), in.Parameters)
	return &rds.ResetDBClusterParameterGroupOutput{DBClusterParameterGroupName: name}, err
}

// describeDBClusterParameters lists a group's parameters as DescribeDBParameters does.
func (b *Backend) describeDBClusterParameters(call *core.Call, in *rds.DescribeDBClusterParametersInput) (*rds.DescribeDBClusterParametersOutput, error) {
	params, err := b.describeParameters(call, clusterParamGroups, in.DBClusterParameterGroupName, in.Source)
	return page(params, err, in.Marker, in.MaxRecords, func(out []types.Parameter, marker *string) *rds.DescribeDBClusterParametersOutput {
		return &rds.DescribeDBClusterParametersOutput{Parameters: out, Marker: marker}
	})
}
