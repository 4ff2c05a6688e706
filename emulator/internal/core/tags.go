package core

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"unicode/utf8"
)

// MaxTagKey and MaxTagValue are the longest tag key and value AWS accepts, in Unicode
// characters.
const (
	MaxTagKey   = 128
	MaxTagValue = 256
)

// TagRules are one service's limits on tags and the errors it answers when a request breaks
// them.
type TagRules struct {
	// MaxTags is how many tags one resource may have.
	MaxTags int
	// Reserved lists the key prefixes the service refuses in the tags users set, such as
	// "aws:", in lower case; keys are compared without regard to case.
	Reserved []string
	// TooMany is the service's error for a resource that would have more than MaxTags tags.
	TooMany *APIError
	// Invalid returns the service's error for a bad key or value; problem says what is wrong.
	Invalid func(problem string) *APIError
}

// check returns the error the rules give for adding tags to a resource that has existing ones:
// the first bad tag in key order, else too many tags.
func (r TagRules) check(existing, tags map[string]string) error {
	n := len(existing)
	for _, k := range SortedKeys(tags) {
		if err := r.checkTag(k, tags[k]); err != nil {
			return err
		}
		if _, ok := existing[k]; !ok {
			n++
		}
	}
	if n > r.MaxTags {
		tooMany := *r.TooMany
		return &tooMany
	}
	return nil
}

// Check returns the error the rules give for a resource's whole tag set, for services that keep
// tags with the resource (S3's object tags) rather than in a Tags.
func (r TagRules) Check(tags map[string]string) error { return r.check(nil, tags) }

// checkTag returns the error the rules give for one tag, or nil.
func (r TagRules) checkTag(key, value string) error {
	if n := utf8.RuneCountInString(key); n == 0 || n > MaxTagKey {
		return r.Invalid(fmt.Sprintf("Tag keys must be between 1 and %d characters", MaxTagKey))
	}
	if utf8.RuneCountInString(value) > MaxTagValue {
		return r.Invalid(fmt.Sprintf("Tag values must be at most %d characters", MaxTagValue))
	}
	for _, prefix := range r.Reserved {
		if strings.HasPrefix(strings.ToLower(key), prefix) {
			return r.Invalid(fmt.Sprintf("Tag keys starting with '%s' are reserved for internal use", prefix))
		}
	}
	return nil
}

// Tags holds the tags of a service's resources by resource id or ARN, within the service's
// rules. Like Regions, it does no locking: the backend that owns it holds its mutex around every
// use.
type Tags struct {
	rules      TagRules
	byResource map[string]map[string]string
}

// NewTags returns an empty tag store that keeps to rules.
func NewTags(rules TagRules) *Tags {
	return &Tags{rules: rules, byResource: map[string]map[string]string{}}
}

// Merge adds tags to those of each resource ids names, replacing the values of keys it has.
// When the rules refuse the tags for any of the resources (a bad key or value, or more tags than
// the service allows once merged) it changes nothing and returns the service's error. A
// resource not tagged yet, such as one being created, has no tags.
func (t *Tags) Merge(tags map[string]string, ids ...string) error {
	for _, id := range ids {
		if err := t.rules.check(t.byResource[id], tags); err != nil {
			return err
		}
	}
	if len(tags) == 0 {
		return nil
	}
	for _, id := range ids {
		if t.byResource[id] == nil {
			t.byResource[id] = make(map[string]string, len(tags))
		}
		maps.Copy(t.byResource[id], tags)
	}
	return nil
}

// Replace makes tags all the tags of resource id; when the rules refuse them it changes nothing
// and returns the service's error.
func (t *Tags) Replace(id string, tags map[string]string) error {
	if err := t.rules.check(nil, tags); err != nil {
		return err
	}
	t.Delete(id)
	if len(tags) > 0 {
		t.byResource[id] = maps.Clone(tags)
	}
	return nil
}

// Remove deletes keys from the tags of resource id; keys it does not have are ignored.
func (t *Tags) Remove(id string, keys ...string) {
	for _, k := range keys {
		delete(t.byResource[id], k)
	}
	if len(t.byResource[id]) == 0 {
		t.Delete(id)
	}
}

// Map returns a copy of the tags of resource id, empty rather than nil when it has none.
func (t *Tags) Map(id string) map[string]string {
	out := make(map[string]string, len(t.byResource[id]))
	maps.Copy(out, t.byResource[id])
	return out
}

// Delete forgets the tags of resource id, as when the resource is deleted.
func (t *Tags) Delete(id string) { delete(t.byResource, id) }

// Copy gives resource to a copy of the tags of resource from, in place of any it had (RDS
// copies an instance's tags to its snapshots this way).
func (t *Tags) Copy(from, to string) {
	t.Delete(to)
	if tags := t.byResource[from]; len(tags) > 0 {
		t.byResource[to] = maps.Clone(tags)
	}
}

// MarshalJSON writes the tags of every tagged resource, for the services' state dumps.
func (t *Tags) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(t.byResource)
	if err != nil {
		return nil, fmt.Errorf("marshal tags: %w", err)
	}
	return b, nil
}

// TagList returns the tags of resource id as a list sorted by key, each element made by tag
// (which builds the service's own SDK Tag type). The list is empty, not nil, when there are no
// tags, so that responses carry an empty tag list as AWS's do.
func TagList[T any](tags *Tags, id string, tag func(key, value string) T) []T {
	have := tags.byResource[id]
	out := make([]T, 0, len(have))
	for _, k := range SortedKeys(have) {
		out = append(out, tag(k, have[k]))
	}
	return out
}

// TagMap returns a request's list of tags as a map, pair giving each element's key and value,
// and the first key the list repeats ("" when none is repeated). Services that refuse a
// repeated key answer it with their own error; the others keep its last value.
func TagMap[T any](list []T, pair func(T) (key, value string)) (tags map[string]string, repeated string) {
	tags = make(map[string]string, len(list))
	for _, t := range list {
		k, v := pair(t)
		if _, dup := tags[k]; dup && repeated == "" {
			repeated = k
		}
		tags[k] = v
	}
	return tags, repeated
}
