package kube

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"k8s.io/apimachinery/pkg/util/duration"
)

// PrintStates writes states as a table: kind, (namespace,) name, READY, SYNCED, AWS ID, AGE
// and the reason of any resource that is not Ready.
func PrintStates(w io.Writer, states []State, withNamespace bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if withNamespace {
		fmt.Fprint(tw, "NAMESPACE\t")
	}
	fmt.Fprintln(tw, "KIND\tNAME\tREADY\tSYNCED\tAWS ID\tAGE\tREASON")
	for _, s := range states {
		if withNamespace {
			fmt.Fprintf(tw, "%s\t", s.Namespace)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Kind, s.Name, orDash(s.Ready), orDash(s.Synced), orDash(s.ID),
			duration.HumanDuration(s.Age.Round(time.Second)), s.Reason)
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
