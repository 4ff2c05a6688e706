package iam

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// namePattern is the pattern of IAM entity names (roles, policies, inline policies, instance
// profiles) in the IAM API reference.
var namePattern = regexp.MustCompile(`^[\w+=,.@-]+$`)

// pathPattern is the pattern of IAM paths: "/" or "/" followed by printable ASCII ending in "/".
var pathPattern = regexp.MustCompile(`^(/|/[\x21-\x7E]+/)$`)

// checkName returns the ValidationError AWS gives a name (member is the parameter's name in
// lower camel case) that is empty, longer than max or has characters other than letters,
// digits and +=,.@_-.
func checkName(name, member string, max int) error {
	if name == "" {
		return validationError(name, member, "Member must have length greater than or equal to 1")
	}
	if utf8.RuneCountInString(name) > max {
		return validationError(name, member, "Member must have length less than or equal to "+strconv.Itoa(max))
	}
	if !namePattern.MatchString(name) {
		return validationError(name, member, `Member must satisfy regular expression pattern: [\w+=,.@-]+`)
	}
	return nil
}

// checkPath returns a request's path, "/" when it gives none, or the ValidationError AWS gives a
// malformed one.
func checkPath(path *string) (string, error) {
	if path == nil {
		return "/", nil
	}
	p := *path
	if len(p) > 512 || !pathPattern.MatchString(p) {
		return "", validationError(p, "path", `Member must satisfy regular expression pattern: (\u002F)|(\u002F[\u0021-\u007E]+\u002F)`)
	}
	return p, nil
}

// checkPathPrefix returns a List request's PathPrefix, "/" when it gives none, or the
// ValidationError AWS gives one that does not start with a slash.
func checkPathPrefix(prefix *string) (string, error) {
	p := aws.ToString(prefix)
	if prefix == nil {
		return "/", nil
	}
	if len(p) < 1 || len(p) > 512 || !strings.HasPrefix(p, "/") {
		return "", validationError(p, "pathPrefix", `Member must satisfy regular expression pattern: \u002F[\u0021-\u007F]*`)
	}
	return p, nil
}

// checkDescription returns the ValidationError AWS gives a description of more than 1,000
// characters or with characters outside tab, line feed, carriage return and printable Latin-1.
func checkDescription(description *string) error {
	d := aws.ToString(description)
	if utf8.RuneCountInString(d) > 1000 {
		return validationError(d, "description", "Member must have length less than or equal to 1000")
	}
	for _, r := range d {
		if r != '\t' && r != '\n' && r != '\r' && (r < 0x20 || r > 0xFF || (r > 0x7E && r < 0xA1)) {
			return validationError(d, "description", `Member must satisfy regular expression pattern: [\u0009\u000A\u000D\u0020-\u007E\u00A1-\u00FF]*`)
		}
	}
	return nil
}

// key returns the key under which an account keeps an entity named name: names are unique, and
// found, without regard to case.
func key(name string) string { return strings.ToLower(name) }

// idEncoding writes IDs in the alphabet of AWS's unique IDs: upper-case letters and the digits
// 2 to 7.
var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newID returns a new unique ID: prefix (AROA for roles, ANPA for managed policies, AIPA for
// instance profiles) and 17 random characters, as AWS's.
func newID(prefix string) string {
	b := make([]byte, 11)
	_, _ = rand.Read(b)
	return prefix + idEncoding.EncodeToString(b)[:17]
}

// stableID returns the ID that is the same whenever seed is: prefix and 17 characters.
func stableID(prefix, seed string) string {
	h := sha256.Sum256([]byte(seed))
	return prefix + idEncoding.EncodeToString(h[:11])[:17]
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
