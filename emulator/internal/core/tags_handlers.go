package core

// The functions here make a service's tag operations from its Tagging, so that it declares
// them in its Operations map rather than writing a handler for each. The type of the response
// comes first among the type parameters, so that a service names it and Go infers the rest, as
// in core.AddOp[sqs.TagQueueOutput](tagging, in), where in gives a request's reference to its
// queue and its tags.

// AddOp returns the operation that adds the tags of a request to the resource it names, answering
// an empty O: tags gives the request's reference to the resource and its tags as a map.
func AddOp[O, I, R, T any](g Tagging[R, T], tags func(*I) (R, map[string]string)) Operation {
	return changeOp[O](func(call *Call, in *I) error { ref, m := tags(in); return g.Add(call, ref, m) })
}

// AddListOp returns the operation that adds the list of tags of a request to the resource it
// names, after the checks of the list (RequestTags), answering an empty O: tags gives the
// request's reference to the resource and its list.
func AddListOp[O, I, R, T any](g Tagging[R, T], tags func(*I) (R, []T)) Operation {
	return changeOp[O](func(call *Call, in *I) error { ref, list := tags(in); return g.AddList(call, ref, list) })
}

// RemoveOp returns the operation that removes tags from the resource a request names by key,
// answering an empty O: keys gives the request's reference to the resource and the keys.
func RemoveOp[O, I, R, T any](g Tagging[R, T], keys func(*I) (R, []string)) Operation {
	return changeOp[O](func(call *Call, in *I) error { ref, k := keys(in); return g.Remove(call, ref, k) })
}

// ListOp returns the operation that lists the tags of the resource a request names, sorted by
// key: ref gives the request's reference and out makes the response of the list.
func ListOp[O, I, R, T any](g Tagging[R, T], ref func(*I) R, out func([]T) *O) Operation {
	return readOp(func(call *Call, in *I) ([]T, error) { return g.List(call, ref(in)) }, out)
}

// MapOp returns the operation that answers the tags of the resource a request names as a map:
// ref gives the request's reference and out makes the response of the map.
func MapOp[O, I, R, T any](g Tagging[R, T], ref func(*I) R, out func(map[string]string) *O) Operation {
	return readOp(func(call *Call, in *I) (map[string]string, error) { return g.Map(call, ref(in)) }, out)
}

// changeOp returns the operation that runs change on a request and answers an empty O.
func changeOp[O, I any](change func(*Call, *I) error) Operation {
	return Op(func(call *Call, in *I) (*O, error) { return new(O), change(call, in) })
}

// readOp returns the operation that reads tags for a request and answers what out makes of them.
func readOp[O, I, V any](read func(*Call, *I) (V, error), out func(V) *O) Operation {
	return Op(func(call *Call, in *I) (*O, error) {
		tags, err := read(call, in)
		if err != nil {
			return nil, err
		}
		return out(tags), nil
	})
}
