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
	// FoldCase is true for services whose tag keys ignore case (IAM): a key merged in replaces
	// the one that differs from it only in case, and removing a key removes it in any case.
	FoldCase bool
	// Repeated, when set, returns the service's error for a request that gives a tag key twice;
	// without it the key keeps its last value (RequestTags).
	Repeated func(key string) *APIError
	// CountRequest is true for services that refuse a request naming more than MaxTags tags
	// with TooMany before they look up the resource (RequestTags).
	CountRequest bool
}

// AWSTagRules returns the rules of a service that keeps AWS's common limits on tags (AWS General
// Reference, Tagging your AWS resources): at most 50 tags a resource and no key beginning with
// "aws:", which AWS keeps for itself. tooMany is the service's error for too many tags and
// invalid its error for a bad key or value (InvalidTag makes the usual one).
func AWSTagRules(tooMany *APIError, invalid func(problem string) *APIError) TagRules {
	return TagRules{MaxTags: 50, Reserved: []string{"aws:"}, TooMany: tooMany, Invalid: invalid}
}

// CountingRequests returns the rules with CountRequest set: the service refuses a request that
// names more than MaxTags tags before it looks the resource up.
func (r TagRules) CountingRequests() TagRules {
	r.CountRequest = true
	return r
}

// InvalidTag returns the Invalid of a service's TagRules that answers a bad key or value with
// the error code, whose message is format with what is wrong in place of its one %s.
func InvalidTag(code, format string) func(problem string) *APIError {
	return func(problem string) *APIError { return Errorf(code, format, problem) }
}

// check returns the error the rules give for giving a resource the tags merged: the first bad
// tag of added in key order, else too many tags.
func (r TagRules) check(added, merged map[string]string) error {
	for _, k := range SortedKeys(added) {
		if err := r.checkTag(k, added[k]); err != nil {
			return err
		}
	}
	if len(merged) > r.MaxTags {
		tooMany := *r.TooMany
		return &tooMany
	}
	return nil
}

// merge returns a new map of existing with tags added, a tag replacing the existing one of its
// key (of any case, under FoldCase).
func (r TagRules) merge(existing, tags map[string]string) map[string]string {
	merged := maps.Clone(existing)
	if merged == nil {
		merged = make(map[string]string, len(tags))
	}
	for k, v := range tags {
		if r.FoldCase {
			maps.DeleteFunc(merged, func(have, _ string) bool { return strings.EqualFold(have, k) })
		}
		merged[k] = v
	}
	return merged
}

// Check returns the error the rules give for a resource's whole tag set, for services that keep
// tags with the resource (S3's object tags) rather than in a Tags.
func (r TagRules) Check(tags map[string]string) error { return r.check(tags, tags) }

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
	merged := make([]map[string]string, len(ids))
	for i, id := range ids {
		merged[i] = t.rules.merge(t.byResource[id], tags)
		if err := t.rules.check(tags, merged[i]); err != nil {
			return err
		}
	}
	if len(tags) == 0 {
		return nil
	}
	for i, id := range ids {
		t.byResource[id] = merged[i]
	}
	return nil
}

// Replace makes tags all the tags of resource id; when the rules refuse them it changes nothing
// and returns the service's error.
func (t *Tags) Replace(id string, tags map[string]string) error {
	if err := t.rules.check(tags, tags); err != nil {
		return err
	}
	t.Delete(id)
	if len(tags) > 0 {
		t.byResource[id] = maps.Clone(tags)
	}
	return nil
}

// Remove deletes keys from the tags of resource id (in any case, under FoldCase); keys it does
// not have are ignored.
func (t *Tags) Remove(id string, keys ...string) {
	for _, k := range keys {
		if t.rules.FoldCase {
			maps.DeleteFunc(t.byResource[id], func(have, _ string) bool { return strings.EqualFold(have, k) })
		}
		delete(t.byResource[id], k)
	}
	if len(t.byResource[id]) == 0 {
		t.Delete(id)
	}
}

// RemoveValued deletes key from the tags of resource id when value is nil or the tag has that
// value, as EC2's DeleteTags and ACM's RemoveTagsFromCertificate remove a tag given with a value
// only when it matches.
func (t *Tags) RemoveValued(id, key string, value *string) {
	if have, ok := t.byResource[id][key]; ok && (value == nil || *value == have) {
		t.Remove(id, key)
	}
}

// Map returns a copy of the tags of resource id, empty rather than nil when it has none.
func (t *Tags) Map(id string) map[string]string {
	out := make(map[string]string, len(t.byResource[id]))
	maps.Copy(out, t.byResource[id])
	return out
}

// IDs returns the ids of the resources that have tags, sorted.
func (t *Tags) IDs() []string { return SortedKeys(t.byResource) }

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
