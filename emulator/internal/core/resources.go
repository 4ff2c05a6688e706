package core

import (
	"sort"
	"strconv"
)

// ARN returns the Amazon Resource Name of a regional resource of service in the scope, for
// example Scope{"000000000000", "us-east-1"}.ARN("rds", "db:orders") is
// "arn:aws:rds:us-east-1:000000000000:db:orders".
func (s Scope) ARN(service, resource string) string {
	return "arn:aws:" + service + ":" + s.Region + ":" + s.Account + ":" + resource
}

// SortedKeys returns the keys of m in ascending order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Page returns the page of at most size items that starts at the position token holds ("" for
// the first page), and the token of the next page ("" after the last). Items must come in a
// stable order. ok is false when token is not one that Page returned for these items.
func Page[T any](items []T, token string, size int) (page []T, next string, ok bool) {
	start := 0
	if token != "" {
		n, err := strconv.Atoi(token)
		if err != nil || n < 0 || n > len(items) {
			return nil, "", false
		}
		start = n
	}
	end := min(start+size, len(items))
	if end < len(items) {
		next = strconv.Itoa(end)
	}
	return items[start:end], next, true
}

// Select returns the keys of m that a request names, deduplicated and in ascending order, or
// every key when it names none; absent lists, in request order, the named keys m lacks. Describe
// operations that take lists of ids (EC2's, ELB's) answer them all in one call this way.
func Select[V any](m map[string]V, names []string) (keys, absent []string) {
	if len(names) == 0 {
		return SortedKeys(m), nil
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if _, ok := m[n]; ok {
			keys = append(keys, n)
		} else {
			absent = append(absent, n)
		}
	}
	sort.Strings(keys)
	return keys, absent
}

// SelectBy is Select for requests that name resources by something other than their key (ELB's
// Names next to its ARNs): name returns that of a resource, and keys are the keys of the
// resources named.
func SelectBy[V any](m map[string]V, names []string, name func(V) string) (keys, absent []string) {
	byName := make(map[string]string, len(m))
	for k, v := range m {
		byName[name(v)] = k
	}
	names, absent = Select(byName, names)
	for _, n := range names {
		keys = append(keys, byName[n])
	}
	sort.Strings(keys)
	return keys, absent
}
