package core

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"strings"
)

// SDKMethod is the type of an SDK client's method for one operation, as its method expression
// gives it ((*ecs.Client).TagResource): C is the client, P its options, I and O the operation's
// input and output. A service declares an operation by it where core builds the handler; the
// operation's name is its input's less "Input" (TagResourceInput names TagResource). Core never
// calls the method: it gives the operation's name and types only.
type SDKMethod[C, P, I, O any] func(*C, context.Context, *I, ...func(*P)) (*O, error)

// TagOperations returns a service's three tag operations, declared by its SDK client's methods
// for them, whose requests name the resource in their member ref: add and remove as
// TagChangeOperations makes them, and list as ListTagsOperation makes it.
func TagOperations[T, C, P, AI, AO, RI, RO, LI, LO any](g Tagging[*string, T], ref string,
	add SDKMethod[C, P, AI, AO], remove SDKMethod[C, P, RI, RO], list SDKMethod[C, P, LI, LO]) map[string]Operation {
	ops := TagChangeOperations(g, ref, add, remove)
	maps.Copy(ops, ListTagsOperation(g, ref, list))
	return ops
}

// TagChangeOperations returns a service's operations that add and remove tags, declared by its
// SDK client's methods for them, whose requests name the resource in their member ref: add takes
// the tags in its member Tags (a list of T, checked as AddList checks it, or a map) and remove
// the keys in TagKeys. It panics when the SDK's structs are not of that form: a mistake in the
// service's declaration, which the router meets when it starts.
func TagChangeOperations[T, C, P, AI, AO, RI, RO any](g Tagging[*string, T], ref string,
	add SDKMethod[C, P, AI, AO], remove SDKMethod[C, P, RI, RO]) map[string]Operation {
	removeRef, keys := mustGetter[RI, *string](ref), mustGetter[RI, []string]("TagKeys")
	return map[string]Operation{
		operationName[AI](): addTagsOp[AO](g, mustGetter[AI, *string](ref)),
		operationName[RI](): RemoveOp[RO](g, func(in *RI) (*string, []string) { return removeRef(in), keys(in) }),
	}
}

// ListTagsOperation returns a service's operation that lists the tags of a resource, declared by
// its SDK client's method for it, whose request names the resource in its member ref and whose
// output holds the tags in its member Tags or TagList (a list of T sorted by key, or a map). It
// panics when the SDK's structs are not of that form.
func ListTagsOperation[T, C, P, LI, LO any](g Tagging[*string, T], ref string, list SDKMethod[C, P, LI, LO]) map[string]Operation {
	return map[string]Operation{operationName[LI](): listTagsOp[LO](g, mustGetter[LI, *string](ref))}
}

// addTagsOp returns the operation that adds the tags of an AI, given in its member Tags as a list
// of T or as a map, to the resource ref names.
func addTagsOp[AO, AI, T any](g Tagging[*string, T], ref func(*AI) *string) Operation {
	if list, ok := getter[AI, []T]("Tags"); ok {
		return AddListOp[AO](g, func(in *AI) (*string, []T) { return ref(in), list(in) })
	}
	tags := mustGetter[AI, map[string]string]("Tags")
	return AddOp[AO](g, func(in *AI) (*string, map[string]string) { return ref(in), tags(in) })
}

// listTagsOp returns the operation that answers the tags of the resource an LI names with an LO
// that holds them in its member Tags or TagList, as a list of T or as a map.
func listTagsOp[LO, LI, T any](g Tagging[*string, T], ref func(*LI) *string) Operation {
	for _, name := range []string{"Tags", "TagList"} {
		if out, ok := setter[LO, []T](name); ok {
			return ListOp(g, ref, out)
		}
		if out, ok := setter[LO, map[string]string](name); ok {
			return MapOp(g, ref, out)
		}
	}
	panic(fmt.Sprintf("core: %s has no member Tags or TagList of tags", reflect.TypeFor[LO]()))
}

// operationName returns the name of the operation whose SDK input is I.
func operationName[I any]() string {
	return strings.TrimSuffix(reflect.TypeFor[I]().Name(), "Input")
}

// getter returns the function that reads the member name, of type V, of an S, and whether S has
// such a member.
func getter[S, V any](name string) (func(*S) V, bool) {
	f, ok := reflect.TypeFor[S]().FieldByName(name)
	if !ok || f.Type != reflect.TypeFor[V]() {
		return nil, false
	}
	return func(s *S) V { return reflect.ValueOf(s).Elem().FieldByIndex(f.Index).Interface().(V) }, true
}

// mustGetter returns getter's function, or panics when S has no member name of type V.
func mustGetter[S, V any](name string) func(*S) V {
	get, ok := getter[S, V](name)
	if !ok {
		panic(fmt.Sprintf("core: %s has no member %s of type %s", reflect.TypeFor[S](), name, reflect.TypeFor[V]()))
	}
	return get
}

// setter returns the function that makes a new S whose member name, of type V, holds a value, and
// whether S has such a member.
func setter[S, V any](name string) (func(V) *S, bool) {
	f, ok := reflect.TypeFor[S]().FieldByName(name)
	if !ok || f.Type != reflect.TypeFor[V]() {
		return nil, false
	}
	return func(v V) *S {
		s := new(S)
		reflect.ValueOf(s).Elem().FieldByIndex(f.Index).Set(reflect.ValueOf(v))
		return s
	}, true
}
