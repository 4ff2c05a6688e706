package core

import (
	"regexp"
	"strings"
)

// identifier matches the identifiers of RDS and ElastiCache once lowercased: a letter, then
// letters, digits and single hyphens, not ending in a hyphen.
var identifier = regexp.MustCompile(`^[a-z]([a-z0-9]|-[a-z0-9])*$`)

// Identifier returns id lowercased, as RDS and ElastiCache keep their identifiers (of instances,
// clusters, groups, snapshots), and whether it is one of at most max characters.
func Identifier(id string, max int) (string, bool) {
	id = strings.ToLower(id)
	return id, len(id) <= max && identifier.MatchString(id)
}
