package plan

import (
	"fmt"
	"io"
	"strings"
)

// Markdown writes the report for a pull-request comment: a heading, the summary, a table of
// the objects that would change or cannot be planned (action, kind, name, AWS id, and the
// changed fields or the reason), a collapsible block with the values of each changed object,
// and a collapsible list of the unchanged objects. Every value is escaped for GitHub's
// Markdown.
func Markdown(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### infractl plan: namespace %s\n\n", md(r.Namespace))
	b.WriteString("**" + summaryLine(r.count()) + "**\n\n")
	var unchanged []Object
	var rows []Object
	for _, o := range r.Objects {
		if o.Action == NoChange {
			unchanged = append(unchanged, o)
			continue
		}
		rows = append(rows, o)
	}
	if len(rows) > 0 {
		b.WriteString("| Action | Kind | Name | AWS id | Fields or reason |\n|---|---|---|---|---|\n")
		for _, o := range rows {
			fmt.Fprintf(&b, "| %s %s | %s | %s | %s | %s |\n", symbols[o.Action], verbOf(o.Action), md(o.Kind), md(o.Name),
				md(o.ExternalName), mdDetail(o))
		}
		b.WriteString("\n")
	}
	for _, f := range r.MissingFamilies {
		fmt.Fprintf(&b, "> **No answer from the %s operator**: is it running?\n\n", md(f))
	}
	for _, o := range rows {
		if len(o.Changes) == 0 {
			continue
		}
		fmt.Fprintf(&b, "<details><summary>%s %s %s</summary>\n\n| Field | Current | Desired |\n|---|---|---|\n",
			verbOf(o.Action), md(o.Kind), md(o.Name))
		for _, ch := range o.Changes {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", md(ch.Field), md(ch.Current), md(ch.Desired))
		}
		b.WriteString("\n</details>\n\n")
	}
	if len(unchanged) > 0 {
		fmt.Fprintf(&b, "<details><summary>%d unchanged</summary>\n\n", len(unchanged))
		for _, o := range unchanged {
			fmt.Fprintf(&b, "- %s %s", md(o.Kind), md(o.Name))
			if o.ExternalName != "" {
				fmt.Fprintf(&b, " (%s)", md(o.ExternalName))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n</details>\n\n")
	}
	if len(r.NotPlanned) > 0 {
		names := make([]string, len(r.NotPlanned))
		for i, n := range r.NotPlanned {
			names[i] = md(n.Kind + " " + n.Name)
		}
		fmt.Fprintf(&b, "Not planned (not managed by infra-operator): %s.\n\n", strings.Join(names, ", "))
	}
	for _, warning := range r.Warnings {
		fmt.Fprintf(&b, "> Warning: %s\n\n", md(warning))
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// mdDetail is the last cell of an object's row: the changed fields, or the reason and message.
func mdDetail(o Object) string {
	if len(o.Changes) > 0 {
		fields := make([]string, len(o.Changes))
		for i, ch := range o.Changes {
			fields[i] = md(ch.Field)
		}
		return strings.Join(fields, ", ")
	}
	switch {
	case o.Reason != "" && o.Message != "":
		return md(o.Reason + ": " + o.Message)
	case o.Reason != "":
		return md(o.Reason)
	}
	return md(o.Message)
}

// mdEscaper escapes what would break a table cell or start Markdown or HTML.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`, "\r\n", " ", "\n", " ",
)

// md escapes a value for a Markdown table cell or line.
func md(s string) string {
	return mdEscaper.Replace(s)
}
