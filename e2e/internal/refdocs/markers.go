package refdocs

import (
	"fmt"
	"strings"
)

// Begin returns the line that opens the generated block called name.
func Begin(name string) string {
	return "<!-- BEGIN GENERATED: " + name + " (cd e2e && go run ./cmd/refdocs -root ..) -->"
}

// End returns the line that closes the generated block called name.
func End(name string) string {
	return "<!-- END GENERATED: " + name + " -->"
}

// Splice returns doc with the text between the markers of the block called name replaced by
// body. The markers must each appear once, on lines of their own, Begin before End.
func Splice(doc, name, body string) (string, error) {
	begin, end := Begin(name)+"\n", "\n"+End(name)
	if strings.Count(doc, begin) != 1 || strings.Count(doc, end) != 1 {
		return "", fmt.Errorf("the block %q needs its two markers once each:\n%s\n%s", name, Begin(name), End(name))
	}
	i := strings.Index(doc, begin) + len(begin)
	j := strings.Index(doc, end)
	if j < i-1 {
		return "", fmt.Errorf("the block %q ends before it begins", name)
	}
	return doc[:i] + "\n" + strings.TrimSpace(body) + "\n" + doc[j:], nil
}
