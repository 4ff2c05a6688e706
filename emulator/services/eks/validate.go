package eks

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// resourceName matches the names of clusters, node groups and add-ons (Amazon EKS API
// Reference, CreateCluster and CreateNodegroup: ^[0-9A-Za-z][A-Za-z0-9\-_]*).
var resourceName = regexp.MustCompile(`^[0-9A-Za-z][A-Za-z0-9\-_]*$`)

// checkName checks the name a request gives in param, of at most max characters, with EKS's
// message.
func checkName(param, name string, max int) error {
	if !resourceName.MatchString(name) {
		return invalidParameter("The %s parameter contains invalid characters. It should conform to the regular expression \"^[0-9A-Za-z][A-Za-z0-9-_]*\""+
			"In other words, it should start with a number or letter, and can contain numbers, letters, dashes, and underscores.", param)
	}
	if utf8.RuneCountInString(name) > max {
		return invalidParameter("The %s parameter must be at most %d characters long", param, max)
	}
	return nil
}

// roleARN matches an IAM role ARN.
var roleARN = regexp.MustCompile(`^arn:aws[a-zA-Z-]*:iam::\d{12}:role/[\w+=,.@/-]+$`)

// checkRole checks an IAM role ARN; the role itself is not checked, as IAM is not emulated.
func checkRole(arn string) error {
	if !roleARN.MatchString(arn) {
		return invalidParameter("Invalid Role Arn: '%s'", arn)
	}
	return nil
}

// kmsKeyARN matches a KMS key or alias ARN, the forms an encryption provider takes.
var kmsKeyARN = regexp.MustCompile(`^arn:aws[a-zA-Z-]*:kms:([a-z0-9-]+):\d{12}:(key/[A-Za-z0-9-]+|alias/[\w/-]+)$`)

// checkEncryption checks a cluster's encryption configuration as AWS does: at most one, with a
// KMS key of the cluster's region, encrypting secrets.
func checkEncryption(scope core.Scope, configs []types.EncryptionConfig) error {
	if len(configs) > 1 {
		return invalidParameter("Only one encryption configuration is supported")
	}
	for _, c := range configs {
		if c.Provider == nil || aws.ToString(c.Provider.KeyArn) == "" {
			return invalidParameter("KeyArn is required")
		}
		m := kmsKeyARN.FindStringSubmatch(*c.Provider.KeyArn)
		if m == nil {
			return invalidParameter("Invalid KeyArn: '%s'", *c.Provider.KeyArn)
		}
		if m[1] != scope.Region {
			return invalidParameter("KMS key %s is not in the region of the cluster, %s", *c.Provider.KeyArn, scope.Region)
		}
		if len(c.Resources) == 0 || slices.ContainsFunc(c.Resources, func(r string) bool { return r != "secrets" }) {
			return invalidParameter("Only secrets are supported as encryption resources")
		}
	}
	return nil
}

// logTypes are the control plane log types, in the order EKS lists them.
var logTypes = types.LogType("").Values()

// enabledLogs returns the log types enabled once l applies to those enabled now; types l does
// not name keep their state.
func enabledLogs(l *types.Logging, now map[types.LogType]bool) (map[types.LogType]bool, error) {
	out := map[types.LogType]bool{}
	for k, v := range now {
		out[k] = v
	}
	if l == nil {
		return out, nil
	}
	seen := map[types.LogType]bool{}
	for _, setup := range l.ClusterLogging {
		for _, t := range setup.Types {
			if !slices.Contains(logTypes, t) {
				return nil, invalidParameter("Invalid log type %s: must be one of api, audit, authenticator, controllerManager, scheduler", t)
			}
			if seen[t] {
				return nil, invalidParameter("The log type %s is specified more than once", t)
			}
			seen[t] = true
			out[t] = aws.ToBool(setup.Enabled)
		}
	}
	return out, nil
}

// loggingView returns the logging configuration as EKS describes it: the enabled types, then
// the disabled ones, each set in one entry.
func loggingView(enabled map[types.LogType]bool) *types.Logging {
	var on, off []types.LogType
	for _, t := range logTypes {
		if enabled[t] {
			on = append(on, t)
		} else {
			off = append(off, t)
		}
	}
	out := &types.Logging{ClusterLogging: []types.LogSetup{}}
	if len(on) > 0 {
		out.ClusterLogging = append(out.ClusterLogging, types.LogSetup{Enabled: aws.Bool(true), Types: on})
	}
	if len(off) > 0 {
		out.ClusterLogging = append(out.ClusterLogging, types.LogSetup{Enabled: aws.Bool(false), Types: off})
	}
	return out
}

// unsupported returns the error for a setting the emulator does not implement, named by its
// member, or nil when none of the settings is set.
func unsupported(settings map[string]bool) error {
	for _, name := range core.SortedKeys(settings) {
		if settings[name] {
			return invalidParameter("The emulator does not support %s", name)
		}
	}
	return nil
}

// jsonValue returns v as the JSON that update parameters carry.
func jsonValue(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sortedCopy returns a sorted copy of a list, empty rather than nil.
func sortedCopy(list []string) []string {
	out := append([]string{}, list...)
	slices.Sort(out)
	return out
}

// joinCIDRs formats CIDRs as EKS's messages do.
func joinCIDRs(cidrs []string) string { return strings.Join(cidrs, ", ") }
