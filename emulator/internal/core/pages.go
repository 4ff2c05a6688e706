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
