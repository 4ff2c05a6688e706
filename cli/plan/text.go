package plan

import (
	"fmt"
	"io"
	"strings"
)

// symbols are the text format's first column, one per action.
var symbols = map[Action]string{
	Create: "+", Update: "~", Delete: "-", Refused: "!", Waiting: "…", NoChange: "=", Failed: "!", NoAnswer: "?",
}

// verbs name the actions in the text format.
var verbs = map[Action]string{
	Create: "create", Update: "update", Delete: "delete", Refused: "refused", Waiting: "waiting",
	NoChange: "no change", Failed: "failed", NoAnswer: "no answer",
}

// Text writes the report as `infractl plan` prints it by default: one block per object that
// would change or cannot be planned, like Terraform's plan, then the summary. Unchanged
// objects are only counted; TextVerbose lists them too.
func Text(w io.Writer, r *Report) error {
	return text(w, r, false)
}

// TextVerbose writes the report as Text does, with a line per unchanged object.
func TextVerbose(w io.Writer, r *Report) error {
	return text(w, r, true)
}

func text(w io.Writer, r *Report, verbose bool) error {
	var b strings.Builder
	for _, o := range r.Objects {
		if o.Action == NoChange && !verbose {
			continue
		}
		b.WriteString(headline(o))
		b.WriteString("\n")
		for _, ch := range o.Changes {
			fmt.Fprintf(&b, "    %s\n", changeLine(o.Action, ch))
		}
	}
	for _, f := range r.MissingFamilies {
		fmt.Fprintf(&b, "? no answer from the %s operator: is it running?\n", f)
	}
	if len(r.Objects) > 0 || len(r.MissingFamilies) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(summaryLine(r.count()))
	b.WriteString("\n")
	if len(r.NotPlanned) > 0 {
		names := make([]string, len(r.NotPlanned))
		for i, n := range r.NotPlanned {
			names[i] = n.Kind + " " + n.Name
		}
		fmt.Fprintf(&b, "Not planned (not managed by infra-operator): %s.\n", strings.Join(names, ", "))
	}
	for _, warning := range r.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", warning)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// headline is the first line of an object's block: `~ update SQSQueue orders (orders-id)`,
// then the reason and message when there are.
func headline(o Object) string {
	s := fmt.Sprintf("%s %s %s %s", symbols[o.Action], verbOf(o.Action), o.Kind, o.Name)
	if o.ExternalName != "" {
		s += " (" + o.ExternalName + ")"
	}
	switch {
	case o.Reason != "" && o.Message != "":
		s += ": " + o.Reason + ": " + o.Message
	case o.Reason != "":
		s += ": " + o.Reason
	case o.Message != "" && o.Action != Create && o.Action != Update && o.Action != NoChange:
		s += ": " + o.Message
	}
	return s
}

// verbOf names an action, or gives it as it is when infractl does not know it.
func verbOf(a Action) string {
	if v, ok := verbs[a]; ok {
		return v
	}
	return string(a)
}

// changeLine is one changed field: `field: current -> desired` for an Update, `field: desired`
// for a Create, and `field (changes)` when the kind shows neither value.
func changeLine(a Action, ch Change) string {
	switch {
	case ch.Current == "" && ch.Desired == "":
		return ch.Field + " (changes)"
	case a == Create:
		return ch.Field + ": " + ch.Desired
	}
	return ch.Field + ": " + orNotShown(ch.Current) + " -> " + orNotShown(ch.Desired)
}

// orNotShown returns v, or "(not shown)" when the kind does not show the value.
func orNotShown(v string) string {
	if v == "" {
		return "(not shown)"
	}
	return v
}

// summaryLine is the last line of the text format; failed objects and objects without an
// answer are counted only when there are.
func summaryLine(s Summary) string {
	line := fmt.Sprintf("Plan: %d to create, %d to update, %d to delete, %d refused, %d waiting, %d unchanged",
		s.Create, s.Update, s.Delete, s.Refused, s.Waiting, s.NoChange)
	if s.Failed > 0 {
		line += fmt.Sprintf(", %d failed", s.Failed)
	}
	if s.NoAnswer > 0 {
		line += fmt.Sprintf(", %d without answer", s.NoAnswer)
	}
	return line + "."
}
