package route53

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The longest domain name and label DNS allows, in characters.
const (
	maxName  = 255
	maxLabel = 63
)

// normalName returns a domain name as Route 53 keeps it: lower case, with a trailing dot, and the
// wildcard label "*" written as its octal escape \052, as ListResourceRecordSets answers it. ok
// is false for a name with an empty or over-long label, or longer than DNS allows.
func normalName(name string) (string, bool) {
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	if name == "" || len(name)+1 > maxName {
		return "", false
	}
	labels := strings.Split(name, ".")
	for i, l := range labels {
		if l == "" || len(l) > maxLabel {
			return "", false
		}
		if l == "*" {
			labels[i] = `\052`
		}
	}
	return strings.Join(labels, ".") + ".", true
}

// zoneName returns the normal form of a CreateHostedZone request's Name, or InvalidDomainName.
func zoneName(name *string) (string, error) {
	n, ok := normalName(aws.ToString(name))
	if !ok || strings.Contains(n, `\052`) {
		return "", core.Errorf("InvalidDomainName", "%s is not a valid domain name.", aws.ToString(name))
	}
	return n, nil
}

// reversed returns a normal name with its labels in reverse order ("www.example.com." becomes
// "com.example.www"), the key Route 53 sorts hosted zones and record sets by.
func reversed(name string) string {
	labels := strings.Split(strings.TrimSuffix(name, "."), ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".")
}

// inZone reports whether a normal name is the zone's apex or below it.
func inZone(name, zone string) bool { return name == zone || strings.HasSuffix(name, "."+zone) }
