package core

import (
	"fmt"
	"reflect"
)

// TagPair returns the key and value of t, an SDK tag whose members Key and Value are *string (the
// types.Tag of most services), "" for an absent one: the Pair of their Tagging and the pair of
// TagMap and RequestTags. It panics when T is not of that form, a mistake of the service that
// its tests meet on the first tag.
func TagPair[T any](t T) (key, value string) {
	v := reflect.ValueOf(t)
	return deref(v.FieldByIndex(tagMember[T]("Key")).Interface().(*string)), deref(v.FieldByIndex(tagMember[T]("Value")).Interface().(*string))
}

// NewTag returns the SDK tag T of key and value, whose members Key and Value are *string: the Tag
// of the Tagging of the services whose types.Tag is of that form, and the tag of TagList. It
// panics as TagPair does.
func NewTag[T any](key, value string) T {
	var t T
	v := reflect.ValueOf(&t).Elem()
	v.FieldByIndex(tagMember[T]("Key")).Set(reflect.ValueOf(&key))
	v.FieldByIndex(tagMember[T]("Value")).Set(reflect.ValueOf(&value))
	return t
}

// tagMember returns the index of T's member name, of type *string, or panics when T has none.
func tagMember[T any](name string) []int {
	f, ok := reflect.TypeFor[T]().FieldByName(name)
	if !ok || f.Type != reflect.TypeFor[*string]() {
		panic(fmt.Sprintf("core: %s has no member %s of type *string", reflect.TypeFor[T](), name))
	}
	return f.Index
}

// deref returns what s points to, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
