package plan

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSON writes the report as indented JSON (`infractl plan -o json`); Report documents the
// field names, which are stable.
func JSON(w io.Writer, r *Report) error {
	out := *r
	out.Summary = r.count()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return fmt.Errorf("write the plan as JSON: %w", err)
	}
	return nil
}
