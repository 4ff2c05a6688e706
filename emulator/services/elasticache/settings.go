package elasticache

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The default windows. AWS picks a random 60-minute window in an 8-hour block of each region; the
// emulator picks the same ones everywhere, so that tests can rely on them.
const (
	defaultMaintenanceWindow = "sun:05:00-sun:06:00"
	defaultSnapshotWindow    = "03:00-04:00"
)

// settings are what a cache cluster and a replication group are made with.
type settings struct {
	engine                   string
	eng                      engine
	version, nodeType        string
	subnetGroup, vpc         string
	securityGroups           []string
	maintenance, snapshotWin string
	retention                int32
	transit                  bool
	authToken                string
	authModified             time.Time
	port                     int32
	// paramGroup is the cache parameter group the request named, "" for the default of the
	// version's family (see groupOf).
	paramGroup string
}

// request is what CreateCacheCluster and CreateReplicationGroup both give, by the names of
// their fields.
type request struct {
	Engine, EngineVersion, CacheNodeType, CacheSubnetGroupName *string
	SecurityGroupIds                                           []string
	PreferredMaintenanceWindow, SnapshotWindow, AuthToken      *string
	CacheParameterGroupName                                    *string
	SnapshotRetentionLimit, Port                               *int32
	TransitEncryptionEnabled                                   *bool
}

// requestOf returns the settings a create request (a CreateCacheClusterInput or a
// CreateReplicationGroupInput) gives.
func requestOf(in any) request {
	var q request
	core.Fill(&q, in)
	return q
}

// newSettings checks a create request's settings the way AWS does and returns them with their
// defaults. The caller holds the backend's mutex.
func (b *Backend) newSettings(call *core.Call, r *region, q request) (settings, error) {
	var s settings
	var err error
	if s.engine, s.eng, s.version, err = checkEngine(q.Engine, q.EngineVersion); err != nil {
		return s, err
	}
	if err := checkNodeType(q.CacheNodeType); err != nil {
		return s, err
	}
	s.nodeType = *q.CacheNodeType
	g, err := b.requestedSubnetGroup(call, r, q.CacheSubnetGroupName)
	if err != nil {
		return s, err
	}
	s.subnetGroup = g.name
	s.vpc = g.vpc
	if err := b.checkSecurityGroups(call, s.vpc, q.SecurityGroupIds); err != nil {
		return s, err
	}
	s.securityGroups = slices.Clone(q.SecurityGroupIds)
	s.maintenance = defaultMaintenanceWindow
	if q.PreferredMaintenanceWindow != nil {
		s.maintenance = strings.ToLower(*q.PreferredMaintenanceWindow)
	}
	if s.eng.persistent {
		s.snapshotWin = defaultSnapshotWindow
	}
	if err := s.setSnapshots(q.SnapshotRetentionLimit, q.SnapshotWindow); err != nil {
		return s, err
	}
	s.transit = aws.ToBool(q.TransitEncryptionEnabled)
	if s.transit && s.engine == "memcached" && older(s.version, "1.6.12") {
		return s, invalidCombination("Encryption in transit is supported by Memcached 1.6.12 and later, not %s.", s.version)
	}
	if q.AuthToken != nil {
		if err := s.checkAuthToken(*q.AuthToken); err != nil {
			return s, err
		}
		s.authToken, s.authModified = *q.AuthToken, call.Now
	}
	if q.CacheParameterGroupName != nil {
		g, err := r.checkParamGroup(q.CacheParameterGroupName, s.engine, s.version)
		if err != nil {
			return s, err
		}
		s.paramGroup = g.name
	}
	s.port = s.eng.port
	if q.Port != nil {
		s.port = *q.Port
	}
	return s, nil
}

// setSnapshots sets the snapshot retention and window a request gives, which only Redis OSS and
// Valkey take: retention of 0 to 35 days, and a daily window of at least 60 minutes that does not
// overlap the maintenance window (which the settings hold already, checked here too).
func (s *settings) setSnapshots(retention *int32, window *string) error {
	if !s.eng.persistent && (aws.ToInt32(retention) > 0 || window != nil) {
		return invalidCombination("Snapshots are not supported by the %s engine.", s.engine)
	}
	if retention != nil {
		if *retention < 0 || *retention > 35 {
			return invalidValue("SnapshotRetentionLimit must be between 0 and 35 days, not %d.", *retention)
		}
		s.retention = *retention
	}
	if window != nil {
		s.snapshotWin = *window
	}
	m, ok := core.ParseWindow(s.maintenance, true)
	if !ok || m.Length < 60 {
		return invalidValue("Invalid maintenance window %s: it must be ddd:hh24:mi-ddd:hh24:mi and at least 60 minutes long.", s.maintenance)
	}
	if s.snapshotWin == "" {
		return nil
	}
	w, ok := core.ParseWindow(s.snapshotWin, false)
	if !ok || w.Length < 60 {
		return invalidValue("Invalid snapshot window %s: it must be hh24:mi-hh24:mi and at least 60 minutes long.", s.snapshotWin)
	}
	if w.Overlaps(m) {
		return invalidValue("The snapshot window %s and the maintenance window %s must not overlap.", s.snapshotWin, s.maintenance)
	}
	return nil
}

// authTokenPattern is the form of an AUTH token: 16 to 128 printable ASCII letters and digits and
// the special characters !, &, #, $, ^, <, > and - (CreateReplicationGroup, AuthToken).
var authTokenPattern = regexp.MustCompile(`^[A-Za-z0-9!&#$^<>-]{16,128}$`)

// checkAuthToken returns the error AWS gives an AUTH token: only Redis OSS and Valkey take one,
// only with encryption in transit, and only of the AUTH token's form.
func (s *settings) checkAuthToken(token string) error {
	switch {
	case !s.eng.persistent:
		return invalidCombination("The AUTH token is not supported by the %s engine.", s.engine)
	case !s.transit:
		return invalidCombination("The AUTH token is only allowed when encryption in transit is enabled.")
	case !authTokenPattern.MatchString(token):
		return invalidValue("Invalid AuthToken provided. It must be 16 to 128 printable characters: letters, digits and !&#$^<>-.")
	}
	return nil
}

// checkSecurityGroups returns the error AWS gives security groups that do not exist in the
// emulated EC2 or are not in the VPC of the subnet group.
func (b *Backend) checkSecurityGroups(call *core.Call, vpc string, ids []string) error {
	for _, id := range ids {
		v, ok := b.network.SecurityGroup(call.Scope(), id)
		if !ok {
			return invalidValue("The security group %s does not exist.", id)
		}
		if v != vpc {
			return invalidValue("The security group %s is in VPC %s, not in the VPC %s of the cache subnet group.", id, v, vpc)
		}
	}
	return nil
}
