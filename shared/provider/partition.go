package provider

import "strings"

// Partition returns the AWS partition of region, as ARNs name it: aws-cn for the China
// regions, aws-us-gov for GovCloud, aws elsewhere.
func Partition(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	}
	return "aws"
}
