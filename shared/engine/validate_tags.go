package engine

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"unicode/utf8"
)

// tagText matches what AWS allows in a tag key or value: letters, digits, spaces and
// _ . : / = + - @ (AWS's pattern ^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$).
var tagText = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$`)

// CheckTags refuses tags AWS would refuse: a key must be 1 to 128 characters, a value at most
// 256, both of the characters tagText allows. Admission checks the keys and the value lengths
// of spec.tags; their values' characters cost too much for a CEL rule, so the reconciler checks
// every tag a resource would carry (the provider's defaultTags included) here, before any AWS
// call. The error names the key, never the value.
func CheckTags(tags map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		v := tags[k]
		switch n := utf8.RuneCountInString(k); {
		case n == 0:
			return errors.New("a tag has an empty key; AWS needs tag keys of 1 to 128 characters")
		case n > 128:
			return fmt.Errorf("tag key %.20q... is %d characters long; AWS takes at most 128", k, n)
		case !tagText.MatchString(k):
			return fmt.Errorf("tag key %q holds a character AWS refuses; use letters, digits, spaces and _ . : / = + - @", k)
		case utf8.RuneCountInString(v) > 256:
			return fmt.Errorf("the value of tag %q is %d characters long; AWS takes at most 256", k, utf8.RuneCountInString(v))
		case !tagText.MatchString(v):
			return fmt.Errorf("the value of tag %q holds a character AWS refuses; use letters, digits, spaces and _ . : / = + - @", k)
		}
	}
	return nil
}
