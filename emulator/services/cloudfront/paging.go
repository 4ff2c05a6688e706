package cloudfront

// pageSize returns the MaxItems of a list request, 100 when it gives none, as AWS does.
func pageSize(maxItems *int32) int {
	if maxItems == nil || *maxItems <= 0 {
		return 100
	}
	return int(*maxItems)
}

// pageAfter returns the items, in ascending order of their keys, that follow marker (from the
// first when marker is empty), at most size of them, and the marker of the next page ("" after
// the last).
func pageAfter[T any](items []T, key func(T) string, marker string, size int) (page []T, next string) {
	start := 0
	for start < len(items) && marker != "" && key(items[start]) <= marker {
		start++
	}
	end := min(start+size, len(items))
	if end < len(items) {
		next = key(items[end-1])
	}
	return items[start:end], next
}
