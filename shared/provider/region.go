package provider

import "regexp"

// partitionRegions are the region name patterns of AWS's partitions, as the SDK's endpoint
// rules define them. A region that matches none of them cannot be reached.
var partitionRegions = []*regexp.Regexp{
	regexp.MustCompile(`^(us|eu|ap|sa|ca|me|af|il|mx)-\w+-\d+$`),
	regexp.MustCompile(`^cn-\w+-\d+$`),
	regexp.MustCompile(`^us-gov-\w+-\d+$`),
	regexp.MustCompile(`^us-iso-\w+-\d+$`),
	regexp.MustCompile(`^us-isob-\w+-\d+$`),
	regexp.MustCompile(`^eu-isoe-\w+-\d+$`),
	regexp.MustCompile(`^us-isof-\w+-\d+$`),
	regexp.MustCompile(`^eusc-(de)-\w+-\d+$`),
}

// KnownRegion reports whether region belongs to one of AWS's partitions.
func KnownRegion(region string) bool {
	for _, re := range partitionRegions {
		if re.MatchString(region) {
			return true
		}
	}
	return false
}
