package eks

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// addonVersion is one version of an add-on: the Kubernetes versions it runs on, and those it
// is the default version for.
type addonVersion struct {
	version            string
	clusters, defaults []string
}

// addonKind is one Amazon EKS add-on with its versions, newest first.
type addonKind struct {
	name, typ string
	iam       bool // whether it needs IAM permissions (an IRSA role or pod identity)
	versions  []addonVersion
}

var (
	allVersions = []string{"1.29", "1.30", "1.31", "1.32", "1.33"}

	// catalogue is the fixed set of add-ons the emulator offers, by name: a small part of what
	// DescribeAddonVersions answers on AWS, with versions of the same form.
	catalogue = []addonKind{
		{name: "aws-ebs-csi-driver", typ: "storage", iam: true, versions: []addonVersion{
			{"v1.44.0-eksbuild.1", allVersions, allVersions},
			{"v1.41.0-eksbuild.1", allVersions, nil},
		}},
		{name: "coredns", typ: "networking", versions: []addonVersion{
			{"v1.12.1-eksbuild.2", []string{"1.33"}, []string{"1.33"}},
			{"v1.11.4-eksbuild.14", []string{"1.31", "1.32", "1.33"}, []string{"1.31", "1.32"}},
			{"v1.11.4-eksbuild.2", []string{"1.30", "1.31"}, []string{"1.30"}},
			{"v1.11.1-eksbuild.9", []string{"1.29", "1.30"}, []string{"1.29"}},
		}},
		{name: "kube-proxy", typ: "networking", versions: []addonVersion{
			{"v1.33.0-eksbuild.2", []string{"1.33"}, []string{"1.33"}},
			{"v1.32.3-eksbuild.7", []string{"1.32"}, []string{"1.32"}},
			{"v1.31.7-eksbuild.7", []string{"1.31"}, []string{"1.31"}},
			{"v1.30.11-eksbuild.5", []string{"1.30"}, []string{"1.30"}},
			{"v1.29.15-eksbuild.5", []string{"1.29"}, []string{"1.29"}},
		}},
		{name: "vpc-cni", typ: "networking", iam: true, versions: []addonVersion{
			{"v1.19.5-eksbuild.3", allVersions, allVersions},
			{"v1.19.2-eksbuild.1", allVersions, nil},
			{"v1.18.6-eksbuild.1", []string{"1.29", "1.30", "1.31"}, nil},
		}},
	}
)

// addonKindOf returns the catalogue's add-on named name, or nil.
func addonKindOf(name string) *addonKind {
	for i := range catalogue {
		if catalogue[i].name == name {
			return &catalogue[i]
		}
	}
	return nil
}

// addonVersionFor returns the version of add-on k a request asks for on a cluster running
// Kubernetes cluster: its default version there when version is empty. ok is false when the
// version does not run on the cluster.
func (k *addonKind) versionFor(version, cluster string) (string, bool) {
	for _, v := range k.versions {
		if !slices.Contains(v.clusters, cluster) {
			continue
		}
		if version == v.version || (version == "" && slices.Contains(v.defaults, cluster)) {
			return v.version, true
		}
	}
	return "", false
}

// info returns the add-on as DescribeAddonVersions shows it, with the versions that run on
// Kubernetes version cluster (every version when empty).
func (k *addonKind) info(cluster string) types.AddonInfo {
	out := types.AddonInfo{AddonName: aws.String(k.name), Type: aws.String(k.typ), Owner: aws.String("aws"), Publisher: aws.String("eks"),
		AddonVersions: []types.AddonVersionInfo{}}
	for _, v := range k.versions {
		var compat []types.Compatibility
		for _, c := range v.clusters {
			if cluster == "" || c == cluster {
				compat = append(compat, types.Compatibility{ClusterVersion: aws.String(c), PlatformVersions: []string{"*"},
					DefaultVersion: slices.Contains(v.defaults, c)})
			}
		}
		if len(compat) > 0 {
			out.AddonVersions = append(out.AddonVersions, types.AddonVersionInfo{AddonVersion: aws.String(v.version),
				Architecture: []string{"amd64", "arm64"}, Compatibilities: compat, RequiresIamPermissions: k.iam})
		}
	}
	return out
}

func (b *Backend) describeAddonVersions(_ *core.Call, in *eks.DescribeAddonVersionsInput) (*eks.DescribeAddonVersionsOutput, error) {
	cluster := aws.ToString(in.KubernetesVersion)
	var names []string
	for _, k := range catalogue {
		switch {
		case in.AddonName != nil && *in.AddonName != k.name,
			len(in.Types) > 0 && !slices.Contains(in.Types, k.typ),
			len(in.Owners) > 0 && !slices.Contains(in.Owners, "aws"),
			len(in.Publishers) > 0 && !slices.Contains(in.Publishers, "eks"),
			len(k.info(cluster).AddonVersions) == 0:
			continue
		}
		names = append(names, k.name)
	}
	names, next, err := page(names, in.NextToken, in.MaxResults)
	if err != nil {
		return nil, err
	}
	out := &eks.DescribeAddonVersionsOutput{Addons: []types.AddonInfo{}, NextToken: next}
	for _, n := range names {
		out.Addons = append(out.Addons, addonKindOf(n).info(cluster))
	}
	return out, nil
}
