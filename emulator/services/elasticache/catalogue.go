package elasticache

import (
	"slices"
	"strconv"
	"strings"
)

// engine is one cache engine: its versions (oldest first; the last is the default), its port,
// and whether it keeps data (snapshots, replication groups, AUTH tokens), as Redis OSS and
// Valkey do and Memcached does not.
type engine struct {
	versions   []string
	port       int32
	persistent bool
}

// engines are the engines and versions ElastiCache offers (ElastiCache User Guide, Supported
// engines and versions), a recent subset.
var engines = map[string]engine{
	"redis":     {versions: []string{"5.0.6", "6.0", "6.2", "7.0", "7.1"}, port: 6379, persistent: true},
	"valkey":    {versions: []string{"7.2", "8.0"}, port: 6379, persistent: true},
	"memcached": {versions: []string{"1.6.6", "1.6.12", "1.6.17", "1.6.22"}, port: 11211},
}

// nodeTypes are the cache node types of the catalogue (ElastiCache User Guide, Supported node
// types), current generation.
var nodeTypes = []string{
	"cache.t3.micro", "cache.t3.small", "cache.t3.medium", "cache.t4g.micro", "cache.t4g.small", "cache.t4g.medium",
	"cache.m5.large", "cache.m5.xlarge", "cache.m6g.large", "cache.m6g.xlarge", "cache.m7g.large", "cache.m7g.xlarge",
	"cache.r5.large", "cache.r5.xlarge", "cache.r6g.large", "cache.r6g.xlarge", "cache.r7g.large", "cache.r7g.xlarge",
}

// checkEngine returns the engine a request names (redis when it names none) and its version (the
// latest when it names none), or the error AWS gives an unknown engine or version.
func checkEngine(name, version *string) (string, engine, string, error) {
	n := "redis"
	if name != nil {
		n = strings.ToLower(*name)
	}
	e, ok := engines[n]
	if !ok {
		return "", engine{}, "", invalidValue("Invalid engine name: %s. Valid engines are redis, valkey and memcached.", n)
	}
	v, err := checkVersion(n, e, version)
	return n, e, v, err
}

// checkVersion returns the version a request names for engine e (the latest when it names none),
// or InvalidParameterCombination for one the engine does not have.
func checkVersion(name string, e engine, version *string) (string, error) {
	if version == nil {
		return e.versions[len(e.versions)-1], nil
	}
	if !slices.Contains(e.versions, *version) {
		return "", invalidCombination("Cannot find version %s for %s", *version, name)
	}
	return *version, nil
}

// checkNodeType returns the error AWS gives a node type that is not in the catalogue.
func checkNodeType(t *string) error {
	if t == nil {
		return invalidValue("The parameter CacheNodeType must be provided and must not be blank.")
	}
	if !slices.Contains(nodeTypes, *t) {
		return invalidValue("Invalid CacheNodeType: %s", *t)
	}
	return nil
}

// older reports whether engine version a is older than b, comparing their numbers in order.
func older(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(as), len(bs)) {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// regionCode is the short form of a region in ElastiCache's endpoints: us-east-1 is use1,
// ap-southeast-2 apse2, eu-central-1 euc1.
func regionCode(region string) string {
	parts := strings.Split(region, "-")
	if len(parts) < 3 {
		return region
	}
	direction := strings.Join(parts[1:len(parts)-1], "")
	for long, short := range map[string]string{"north": "n", "south": "s", "east": "e", "west": "w", "central": "c", "gov": "gov"} {
		direction = strings.ReplaceAll(direction, long, short)
	}
	return parts[0] + direction + parts[len(parts)-1]
}
