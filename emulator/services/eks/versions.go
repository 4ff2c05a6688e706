package eks

import (
	"strconv"
	"strings"
)

// kubeVersion is one Kubernetes version EKS offers, with the EKS platform version of a cluster
// on it and the release of the node AMIs for it.
type kubeVersion struct {
	version, platform, release string
}

// kubernetesVersions are the Kubernetes versions the emulated EKS offers, oldest first.
var kubernetesVersions = []kubeVersion{
	{"1.29", "eks.40", "1.29.15-20250519"},
	{"1.30", "eks.33", "1.30.11-20250519"},
	{"1.31", "eks.29", "1.31.7-20250519"},
	{"1.32", "eks.13", "1.32.3-20250519"},
	{"1.33", "eks.6", "1.33.0-20250519"},
}

// defaultVersion is the version of a cluster created without one: as on AWS, the newest.
const defaultVersion = "1.33"

// lookupVersion returns Kubernetes version v as EKS offers it; ok is false when it does not.
func lookupVersion(v string) (k kubeVersion, ok bool) {
	for _, k := range kubernetesVersions {
		if k.version == v {
			return k, true
		}
	}
	return kubeVersion{}, false
}

// supported reports whether EKS offers Kubernetes version v.
func supported(v string) bool {
	_, ok := lookupVersion(v)
	return ok
}

// platformVersion returns the EKS platform version of a cluster on Kubernetes version v.
func platformVersion(v string) string {
	k, _ := lookupVersion(v)
	return k.platform
}

// releaseVersion returns the node AMI release of Kubernetes version v.
func releaseVersion(v string) string {
	k, _ := lookupVersion(v)
	return k.release
}

// minor returns the minor number of a Kubernetes version "1.<minor>", or -1.
func minor(v string) int {
	major, m, ok := strings.Cut(v, ".")
	n, err := strconv.Atoi(m)
	if !ok || major != "1" || err != nil {
		return -1
	}
	return n
}
