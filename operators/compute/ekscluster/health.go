package ekscluster

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// issues formats the health issues EKS reports for a message, describe giving each one's code
// and message: " (code: message; ...)", or "" when there are none.
func issues[T any](list []T, describe func(T) (code string, message *string)) string {
	if len(list) == 0 {
		return ""
	}
	out := make([]string, 0, len(list))
	for _, i := range list {
		code, msg := describe(i)
		out = append(out, code+": "+aws.ToString(msg))
	}
	return " (" + strings.Join(out, "; ") + ")"
}

// clusterIssues formats the health issues of a cluster (see issues).
func clusterIssues(c *types.Cluster) string {
	if c.Health == nil {
		return ""
	}
	return issues(c.Health.Issues, func(i types.ClusterIssue) (string, *string) { return string(i.Code), i.Message })
}

// nodegroupIssues formats the health issues of a node group (see issues).
func nodegroupIssues(g types.Nodegroup) string {
	if g.Health == nil {
		return ""
	}
	return issues(g.Health.Issues, func(i types.Issue) (string, *string) { return string(i.Code), i.Message })
}

// addonIssues formats the health issues of an add-on (see issues).
func addonIssues(a types.Addon) string {
	if a.Health == nil {
		return ""
	}
	return issues(a.Health.Issues, func(i types.AddonIssue) (string, *string) { return string(i.Code), i.Message })
}
