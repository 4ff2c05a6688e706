package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// Text writes the report as a table (CHECK, OBJECT, STATUS, DETAIL, FIX) and a summary line.
func Text(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECK\tOBJECT\tSTATUS\tDETAIL\tFIX")
	for _, row := range r.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.Check, row.Object, row.Status, row.Detail, row.Fix)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	_, err := fmt.Fprintf(w, "\n%d ok, %d warn, %d fail\n", r.Count(OK), r.Count(Warn), r.Count(Fail))
	return err
}

// JSON writes the report as one JSON object holding its rows and their counts.
func JSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	out := struct {
		Rows    []Row          `json:"rows"`
		Summary map[Status]int `json:"summary"`
	}{Rows: r.Rows, Summary: map[Status]int{OK: r.Count(OK), Warn: r.Count(Warn), Fail: r.Count(Fail)}}
	if out.Rows == nil {
		out.Rows = []Row{}
	}
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	return nil
}
