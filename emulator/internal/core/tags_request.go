package core

// RequestTags returns a request's list of tags as a map, pair giving each element's key and
// value, or the error the rules give a list they refuse before any resource is looked up: more
// than MaxTags tags (TooMany, under CountRequest) or a key given twice (Repeated, when set).
// Without Repeated a key given twice keeps its last value.
func RequestTags[T any](rules TagRules, list []T, pair func(T) (key, value string)) (map[string]string, error) {
	if rules.CountRequest && len(list) > rules.MaxTags {
		tooMany := *rules.TooMany
		return nil, &tooMany
	}
	tags, repeated := TagMap(list, pair)
	if repeated != "" && rules.Repeated != nil {
		return nil, rules.Repeated(repeated)
	}
	return tags, nil
}
