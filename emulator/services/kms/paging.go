package kms

import (
	"encoding/base64"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// pageLimit returns the page size a request's Limit asks for, def when it gives none, or AWS's
// ValidationException when it is outside 1..maximum.
func pageLimit(limit *int32, maximum, def int32) (int, error) {
	if limit == nil {
		return int(def), nil
	}
	switch n := *limit; {
	case n < 1:
		return 0, tooSmall("limit", n, 1)
	case n > maximum:
		return 0, tooLarge("limit", n, maximum)
	}
	return int(*limit), nil
}

// page returns the page of at most limit items that starts at marker ("" for the first page)
// and the marker of the next page (nil after the last). Items come sorted by sortKey; a marker
// holds the sort key of the first item of its page, so that a listing resumes in the right
// place when items come or go between pages. A marker no listing returned answers
// InvalidMarkerException.
func page[T any](items []T, sortKey func(T) string, marker string, limit int) ([]T, *string, error) {
	start := 0
	if marker != "" {
		from, err := base64.RawURLEncoding.DecodeString(marker)
		if err != nil || len(from) == 0 {
			return nil, nil, invalidMarker()
		}
		for start < len(items) && sortKey(items[start]) < string(from) {
			start++
		}
	}
	end := min(start+limit, len(items))
	var next *string
	if end < len(items) {
		next = aws.String(base64.RawURLEncoding.EncodeToString([]byte(sortKey(items[end]))))
	}
	return items[start:end], next, nil
}
