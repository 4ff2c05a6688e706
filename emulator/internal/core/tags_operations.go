package core

import "sync"

// TagTarget is what a tag operation works on: the store that holds a resource's tags and the id
// under which the store keeps them.
type TagTarget struct {
	// Tags is the store of the resource's tags, such as its region's.
	Tags *Tags
	// ID is the resource's id or ARN in the store.
	ID string
	// Touch, when set, runs after a tag operation changed the resource's tags (Secrets Manager
	// dates the change).
	Touch func()
}

// Tagging is one service's tag operations (TagResource, UntagResource, ListTagsForResource and
// their kin), all alike but for how a request names a resource and the service's SDK Tag type.
// R is how a request names a resource (an ARN, name or URL, usually *string) and T the SDK's
// Tag; a service whose SDK takes and answers tags as a map uses struct{} for T.
type Tagging[R, T any] struct {
	// Lock is the backend's mutex, held while Find runs and the store is used.
	Lock sync.Locker
	// Find returns where the resource ref names keeps its tags, or the service's error for a
	// ref that names no resource it tags (a malformed ARN, a resource that is not there).
	Find func(call *Call, ref R) (TagTarget, error)
	// Rules are the service's tag rules, for the checks of a request's tag list (RequestTags).
	Rules TagRules
	// Pair returns the key and value of a request's SDK tag (for AddList).
	Pair func(T) (key, value string)
	// Request, when set, reads a request's list of tags in place of RequestTags, for a service
	// that checks more of the list before it looks the resource up (IAM's patterns).
	Request func([]T) (map[string]string, error)
	// CheckKeys, when set, returns the service's error for the keys of a Remove request before
	// the resource is looked up (IAM's limit on their number).
	CheckKeys func(keys []string) error
	// Tag builds the SDK tag of a key and value (for List).
	Tag func(key, value string) T
}

// With runs f on where the resource ref names keeps its tags, holding Lock, and returns the
// error of Find or of f.
func (g Tagging[R, T]) With(call *Call, ref R, f func(TagTarget) error) error {
	return g.Each(call, []R{ref}, f)
}

// Each runs f on where each resource refs name keeps its tags in turn, holding Lock, and stops
// at the first error of Find or of f.
func (g Tagging[R, T]) Each(call *Call, refs []R, f func(TagTarget) error) error {
	g.Lock.Lock()
	defer g.Lock.Unlock()
	for _, ref := range refs {
		t, err := g.Find(call, ref)
		if err != nil {
			return err
		}
		if err := f(t); err != nil {
			return err
		}
	}
	return nil
}

// Add adds tags to the resource ref names, replacing the values of keys it has, or returns the
// service's error when Find or the rules refuse them.
func (g Tagging[R, T]) Add(call *Call, ref R, tags map[string]string) error {
	return g.AddAll(call, []R{ref}, tags)
}

// AddList adds a request's list of tags to the resource ref names, after the checks of the list
// (RequestTags, or Request when set) that come before the resource is looked up.
func (g Tagging[R, T]) AddList(call *Call, ref R, list []T) error {
	read := g.Request
	if read == nil {
		read = func(list []T) (map[string]string, error) { return RequestTags(g.Rules, list, g.Pair) }
	}
	tags, err := read(list)
	if err != nil {
		return err
	}
	return g.Add(call, ref, tags)
}

// AddAll adds tags to every resource refs name, all of which keep their tags in one store, or to
// none: it returns the first error of Find, or the service's error when the rules refuse the
// tags for one of them.
func (g Tagging[R, T]) AddAll(call *Call, refs []R, tags map[string]string) error {
	g.Lock.Lock()
	defer g.Lock.Unlock()
	targets := make([]TagTarget, len(refs))
	ids := make([]string, len(refs))
	for i, ref := range refs {
		t, err := g.Find(call, ref)
		if err != nil {
			return err
		}
		targets[i], ids[i] = t, t.ID
	}
	if len(targets) == 0 {
		return nil
	}
	if err := targets[0].Tags.Merge(tags, ids...); err != nil {
		return err
	}
	for _, t := range targets {
		t.touch()
	}
	return nil
}

// Remove removes keys from the tags of the resource ref names, after CheckKeys when set; keys it
// does not have are ignored.
func (g Tagging[R, T]) Remove(call *Call, ref R, keys []string) error {
	if g.CheckKeys != nil {
		if err := g.CheckKeys(keys); err != nil {
			return err
		}
	}
	return g.With(call, ref, func(t TagTarget) error {
		t.Tags.Remove(t.ID, keys...)
		t.touch()
		return nil
	})
}

// Map returns the tags of the resource ref names, as the services whose SDK lists them as a map
// answer them.
func (g Tagging[R, T]) Map(call *Call, ref R) (map[string]string, error) {
	var tags map[string]string
	err := g.With(call, ref, func(t TagTarget) error {
		tags = t.Tags.Map(t.ID)
		return nil
	})
	return tags, err
}

// List returns the tags of the resource ref names as a list of the SDK's tags sorted by key,
// empty rather than nil when it has none.
func (g Tagging[R, T]) List(call *Call, ref R) ([]T, error) {
	var tags []T
	err := g.With(call, ref, func(t TagTarget) error {
		tags = TagList(t.Tags, t.ID, g.Tag)
		return nil
	})
	return tags, err
}

// touch runs the target's Touch, when it has one.
func (t TagTarget) touch() {
	if t.Touch != nil {
		t.Touch()
	}
}
