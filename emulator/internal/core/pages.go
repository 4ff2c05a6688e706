package core

// PageAt is Page for requests and responses that carry the token as a pointer, as the SDK's
// NextToken and Marker members do: a nil token asks for the first page, and next is nil after
// the last page.
func PageAt[T any](items []T, token *string, size int) (page []T, next *string, ok bool) {
	var from string
	if token != nil {
		from = *token
	}
	page, to, ok := Page(items, from, size)
	if to != "" {
		next = &to
	}
	return page, next, ok
}

// RecordsPage returns the page of items that a Describe request of RDS or ElastiCache selects
// with its Marker and MaxRecords (20 to 100, 100 when it gives none), and the marker of the next
// page, nil after the last; or the InvalidParameterValue both answer a MaxRecords out of range
// or a marker they did not give with.
func RecordsPage[T any](items []T, marker *string, maxRecords *int32) ([]T, *string, error) {
	size := int32(100)
	if maxRecords != nil {
		if *maxRecords < 20 || *maxRecords > 100 {
			return nil, nil, Errorf("InvalidParameterValue", "Invalid value %d for MaxRecords. Must be between 20 and 100", *maxRecords)
		}
		size = *maxRecords
	}
	out, next, ok := PageAt(items, marker, int(size))
	if !ok {
		return nil, nil, Errorf("InvalidParameterValue", "Invalid Marker: %s", *marker)
	}
	return out, next, nil
}

// PageValues returns what value makes of each key on page, a page of keys that a paging
// function selected (an empty list rather than nil for none), with next, the marker of the page
// after it; or the paging function's error err.
func PageValues[T any](page []string, next *string, err error, value func(key string) T) ([]T, *string, error) {
	if err != nil {
		return nil, nil, err
	}
	out := make([]T, 0, len(page))
	for _, k := range page {
		out = append(out, value(k))
	}
	return out, next, nil
}
