package core

// AnyMatch reports whether one of a Describe filter's values matches one of a resource's values,
// as match tells (EC2 matches with wildcards, RDS by equality): a filter keeps a resource when
// any of its values matches.
func AnyMatch(patterns, values []string, match func(pattern, value string) bool) bool {
	for _, p := range patterns {
		for _, v := range values {
			if match(p, v) {
				return true
			}
		}
	}
	return false
}
