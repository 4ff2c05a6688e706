package rds

import (
	"regexp"
	"strconv"
	"strings"
)

// engine is what the emulator knows of one RDS database engine, from AWS's CreateDBInstance
// reference.
type engine struct {
	name string
	// port is the default port.
	port int32
	// license is the default license model.
	license string
	// majors maps each major version offered to the version a new instance of that major gets.
	majors map[string]string
	// latest is the major version used when no engine version is given.
	latest string
	// majorParts is how many leading components of a version make its major version: 1 for
	// PostgreSQL's "17", 2 for MySQL's "8.0".
	majorParts int
	// family returns the DB parameter group family of a major version.
	family func(major string) string
	// passwordMax is the longest master password; passwordForbidden lists the characters a
	// master password may not hold besides / " @ and space.
	passwordMax       int
	passwordForbidden string
	// storage gives the AllocatedStorage range in GiB by storage type.
	storage map[string][2]int32
	// iopsRatioMin is the smallest ratio of provisioned IOPS to GiB of io1 and io2 volumes.
	iopsRatioMin float64
	// gp3Threshold is the size (GiB) below which gp3 volumes have their baseline IOPS and
	// throughput and take no other; 0 when any size may provision them.
	gp3Threshold int32
	// dbName matches a valid DBName; nil when the engine takes none.
	dbName *regexp.Regexp
	// defaultDBName is the DBName of an instance created without one.
	defaultDBName string
}

// The storage ranges of RDS for MySQL, MariaDB and PostgreSQL, Oracle, and SQL Server.
var (
	openSourceStorage = map[string][2]int32{"gp2": {20, 65536}, "gp3": {20, 65536}, "io1": {100, 65536}, "io2": {100, 65536}, "standard": {5, 3072}}
	oracleStorage     = map[string][2]int32{"gp2": {20, 65536}, "gp3": {20, 65536}, "io1": {100, 65536}, "io2": {100, 65536}, "standard": {10, 3072}}
	sqlServerStorage  = map[string][2]int32{"gp2": {20, 16384}, "gp3": {20, 16384}, "io1": {100, 16384}, "io2": {100, 16384}, "standard": {20, 1024}}
)

// engines are the RDS engines the emulator creates instances of, by name.
var engines = map[string]*engine{}

func init() {
	mysqlName := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)
	joined := func(prefix string) func(string) string { return func(major string) string { return prefix + major } }
	add := func(e engine) { engines[e.name] = &e }
	add(engine{name: "postgres", port: 5432, license: "postgresql-license", latest: "17", majorParts: 1, family: joined("postgres"),
		majors:      map[string]string{"17": "17.6", "16": "16.10", "15": "15.14", "14": "14.19", "13": "13.22"},
		passwordMax: 128, storage: openSourceStorage, iopsRatioMin: 0.5, gp3Threshold: 400,
		dbName: regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,62}$`)})
	add(engine{name: "mysql", port: 3306, license: "general-public-license", latest: "8.4", majorParts: 2, family: joined("mysql"),
		majors:      map[string]string{"8.4": "8.4.6", "8.0": "8.0.43"},
		passwordMax: 41, storage: openSourceStorage, iopsRatioMin: 0.5, gp3Threshold: 400, dbName: mysqlName})
	add(engine{name: "mariadb", port: 3306, license: "general-public-license", latest: "11.4", majorParts: 2, family: joined("mariadb"),
		majors:      map[string]string{"11.4": "11.4.8", "10.11": "10.11.14", "10.6": "10.6.23"},
		passwordMax: 41, storage: openSourceStorage, iopsRatioMin: 0.5, gp3Threshold: 400, dbName: mysqlName})
	// Aurora's engines: their instances belong to a DB cluster, which holds the storage, the
	// master user and the database (cluster.go). Versions are those AWS offers by default for
	// each major version in 2025.
	add(engine{name: "aurora-postgresql", port: 5432, license: "postgresql-license", latest: "17", majorParts: 1, family: joined("aurora-postgresql"),
		majors:      map[string]string{"17": "17.5", "16": "16.9", "15": "15.13"},
		passwordMax: 41, dbName: regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,62}$`)})
	add(engine{name: "aurora-mysql", port: 3306, license: "general-public-license", latest: "8.0", majorParts: 2, family: joined("aurora-mysql"),
		majors:      map[string]string{"8.0": "8.0.mysql_aurora.3.10.0"},
		passwordMax: 41, dbName: regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)})
	for _, name := range []string{"oracle-ee", "oracle-ee-cdb", "oracle-se2", "oracle-se2-cdb"} {
		add(engine{name: name, port: 1521, license: "bring-your-own-license", latest: "19", majorParts: 1, family: joined(name + "-"),
			majors:      map[string]string{"19": "19.0.0.0.ru-2025-07.rur-2025-07.r1"},
			passwordMax: 30, passwordForbidden: "&'", storage: oracleStorage, iopsRatioMin: 0.5, gp3Threshold: 200,
			dbName: regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{0,7}$`), defaultDBName: "ORCL"})
	}
	for _, name := range []string{"sqlserver-ee", "sqlserver-se", "sqlserver-ex", "sqlserver-web", "sqlserver-dev-ee"} {
		add(engine{name: name, port: 1433, license: "license-included", latest: "16.00", majorParts: 2,
			family:      func(major string) string { return name + "-" + strings.TrimSuffix(major, "0") }, // 16.00 -> sqlserver-ee-16.0
			majors:      map[string]string{"16.00": "16.00.4210.1.v1", "15.00": "15.00.4430.1.v1", "14.00": "14.00.3500.1.v1"},
			passwordMax: 128, storage: sqlServerStorage, iopsRatioMin: 1})
	}
}

// lookupEngine returns the engine named name.
func lookupEngine(name string) (*engine, error) {
	if e, ok := engines[name]; ok {
		return e, nil
	}
	if strings.HasPrefix(name, "db2-") || strings.HasPrefix(name, "custom-") {
		return nil, invalidValue("The emulator does not support the %s engine.", name)
	}
	return nil, invalidValue("Invalid DB engine")
}

// isAurora reports whether name is an Aurora engine, whose instances belong to a DB cluster.
func isAurora(name string) bool { return name == "aurora-mysql" || name == "aurora-postgresql" }

// major returns the major version of version.
func (e *engine) major(version string) string {
	parts := strings.SplitN(version, ".", e.majorParts+1)
	return strings.Join(parts[:min(len(parts), e.majorParts)], ".")
}

// version returns the full engine version an instance gets when asked for v: the default of
// the newest major when v is empty, the default of a major when v names only the major.
func (e *engine) version(v string) (string, error) {
	if v == "" {
		return e.majors[e.latest], nil
	}
	full, ok := e.majors[e.major(v)]
	if !ok {
		return "", invalidCombination("Cannot find version %s for %s", v, e.name)
	}
	if v == e.major(v) {
		return full, nil
	}
	return v, nil
}

// defaultParamGroup returns the name of the default DB parameter group of a version.
func (e *engine) defaultParamGroup(version string) string {
	return "default." + e.family(e.major(version))
}

// defaultOptionGroup returns the name of the default option group of a version, for example
// default:mysql-8-0.
func (e *engine) defaultOptionGroup(version string) string {
	return "default:" + e.name + "-" + strings.ReplaceAll(e.major(version), ".", "-")
}

// isFamily reports whether family is the DB parameter group family of an engine's major version.
func isFamily(family string) bool {
	for _, e := range engines {
		for major := range e.majors {
			if e.family(major) == family {
				return true
			}
		}
	}
	return false
}

// checkPassword checks a master password as AWS does.
func (e *engine) checkPassword(p string) error {
	switch {
	case len(p) < 8:
		return invalidValue("The parameter MasterUserPassword is not a valid password because it is shorter than 8 characters.")
	case len(p) > e.passwordMax:
		return invalidValue("The parameter MasterUserPassword is not a valid password because it is longer than %d characters.", e.passwordMax)
	}
	for _, c := range p {
		if c <= ' ' || c > '~' || strings.ContainsRune(`/"@`+e.passwordForbidden, c) {
			return invalidValue("The parameter MasterUserPassword is not a valid password. Only printable ASCII characters besides '/', '@', '\"', ' ' may be used.")
		}
	}
	return nil
}

var masterUsername = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,15}$`)

// checkStorage checks a volume: its size for the storage type, and the IOPS and throughput it
// may provision (0 when not given).
func (e *engine) checkStorage(storageType string, size, iops, throughput int32) error {
	limits, ok := e.storage[storageType]
	if !ok {
		return invalidValue("Invalid storage type: %s", storageType)
	}
	if size < limits[0] || size > limits[1] {
		return invalidCombination("Invalid storage size for engine name %s and storage type %s: %d", e.name, storageType, size)
	}
	if throughput != 0 && storageType != "gp3" {
		return invalidCombination("You can't specify StorageThroughput for storage type %s.", storageType)
	}
	switch storageType {
	case "io1", "io2":
		if iops == 0 {
			return invalidCombination("You must specify Iops for storage type %s.", storageType)
		}
		if ratio := float64(iops) / float64(size); ratio < e.iopsRatioMin || ratio > 50 {
			return invalidCombination("Invalid iops to storage (GB) ratio for engine name %s and storage type %s: %.4f", e.name, storageType, ratio)
		}
	case "gp3":
		if size < e.gp3Threshold && (iops != 0 || throughput != 0) {
			return invalidCombination("You can't specify IOPS or storage throughput for engine %s and a storage size less than %d.", e.name, e.gp3Threshold)
		}
	default:
		if iops != 0 {
			return invalidCombination("You can't specify IOPS for storage type %s.", storageType)
		}
	}
	return nil
}

// gp3Baseline returns the IOPS and throughput a gp3 volume of size GiB has without provisioning.
func (e *engine) gp3Baseline(size int32) (iops, throughput int32) {
	if e.gp3Threshold > 0 && size >= e.gp3Threshold {
		return 12000, 500
	}
	return 3000, 125
}

// versionLess reports whether version a precedes b, comparing dot-separated components
// numerically where both are numbers.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		an, aErr := strconv.Atoi(as[i])
		bn, bErr := strconv.Atoi(bs[i])
		if aErr == nil && bErr == nil {
			return an < bn
		}
		return as[i] < bs[i]
	}
	return len(as) < len(bs)
}
