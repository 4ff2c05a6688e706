package charts

import (
	"bytes"
	"path"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// namespace is where the install tests put their releases.
const namespace = "infra-system"

// dataCRDs are the data family's own CRDs.
var dataCRDs = []string{
	"s3buckets.aws-infra-operator.runner.codes",
	"dynamodbtables.aws-infra-operator.runner.codes",
	"rdsinstances.aws-infra-operator.runner.codes",
}

// TestFamiliesInstallAsSeparateReleases installs the data and networking charts as two
// releases of one namespace, in both orders: the first release installs and owns the shared
// AWSProvider CRD, the second uses it without an ownership conflict.
func TestFamiliesInstallAsSeparateReleases(t *testing.T) {
	for _, order := range [][]string{{"data", "networking"}, {"networking", "data"}} {
		t.Run(strings.Join(order, "-then-"), func(t *testing.T) {
			c := startCluster(t)
			for _, family := range order {
				ch, err := Load(family)
				if err != nil {
					t.Fatal(err)
				}
				c.install(t, ch, family, namespace, nil)
				c.mustExist(t, deploymentKind, namespace, family)
				c.mustExist(t, accountKind, namespace, family)
				c.mustExist(t, roleKind, namespace, family+"-leader-election")
				c.mustExist(t, clusterRoleKind, "", namespace+"-"+family)
			}
			c.mustExist(t, crdKind, "", append(dataCRDs, awsProviderCRD)...)
			if got, want := c.owner(t, awsProviderCRD), namespace+"/"+order[0]; got != want {
				t.Errorf("the AWSProvider CRD belongs to %s, want the first release %s", got, want)
			}
		})
	}
}

// TestUmbrellaInstalls installs every family through the umbrella chart as one release.
func TestUmbrellaInstalls(t *testing.T) {
	c := startCluster(t)
	ch, err := Load(Umbrella)
	if err != nil {
		t.Fatal(err)
	}
	c.install(t, ch, "infra", namespace, nil)
	for _, family := range Families() {
		c.mustExist(t, deploymentKind, namespace, "infra-"+family)
		c.mustExist(t, clusterRoleKind, "", namespace+"-infra-"+family)
	}
	c.mustExist(t, crdKind, "", dataCRDs...)
	if got, want := c.owner(t, awsProviderCRD), namespace+"/infra"; got != want {
		t.Errorf("the AWSProvider CRD belongs to %s, want %s", got, want)
	}
}

// TestUpgradeAndUninstall upgrades a release to a chart whose CRD changed and to new values,
// then uninstalls it: the CRDs stay, and a new install of the release takes them up again.
func TestUpgradeAndUninstall(t *testing.T) {
	c := startCluster(t)
	ch, err := Load("data")
	if err != nil {
		t.Fatal(err)
	}
	c.install(t, ch, "data", namespace, nil)

	changed, err := Load("data")
	if err != nil {
		t.Fatal(err)
	}
	addPrinterColumn(t, changed.Templates, "aws-infra-operator.runner.codes_s3buckets.yaml")
	c.upgrade(t, changed, "data", namespace, map[string]any{"log": map[string]any{"level": "debug"}})
	crd := c.get(t, crdKind, "", dataCRDs[0])
	if !slices.Contains(printerColumns(t, crd), "Upgraded") {
		t.Errorf("after the upgrade the S3Bucket CRD has the printer columns %v, want Upgraded among them", printerColumns(t, crd))
	}
	if args := container(t, c.get(t, deploymentKind, namespace, "data")).Args; !slices.Contains(args, "--log-level=debug") {
		t.Errorf("after the upgrade the Deployment's args are %v, want --log-level=debug among them", args)
	}

	res := c.uninstall(t, "data", namespace)
	if c.get(t, deploymentKind, namespace, "data") != nil {
		t.Error("the Deployment outlived the uninstall")
	}
	c.mustExist(t, crdKind, "", append(dataCRDs, awsProviderCRD)...)
	if !strings.Contains(res.Info, "kept due to the resource policy") || !strings.Contains(res.Info, dataCRDs[0]) {
		t.Errorf("uninstall says %q, want the CRDs kept due to the resource policy", res.Info)
	}

	c.install(t, ch, "data", namespace, nil)
	if got := c.owner(t, dataCRDs[0]); got != namespace+"/data" {
		t.Errorf("after a new install the S3Bucket CRD belongs to %s", got)
	}
}

// addPrinterColumn adds a printer column named Upgraded to the CRD template file of a chart.
func addPrinterColumn(t *testing.T, templates []*chart.File, file string) {
	t.Helper()
	for _, f := range templates {
		if path.Base(f.Name) != file {
			continue
		}
		const anchor = "  - additionalPrinterColumns:\n"
		if !bytes.Contains(f.Data, []byte(anchor)) {
			t.Fatalf("%s has no additionalPrinterColumns", f.Name)
		}
		f.Data = bytes.Replace(f.Data, []byte(anchor), []byte(anchor+"    - jsonPath: .metadata.uid\n      name: Upgraded\n      type: string\n      priority: 1\n"), 1)
		return
	}
	t.Fatalf("no template %s", file)
}

// printerColumns returns the names of the printer columns of the CRD's first version.
func printerColumns(t *testing.T, crd *unstructured.Unstructured) []string {
	t.Helper()
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	if len(versions) == 0 {
		t.Fatalf("CRD %s has no versions", crd.GetName())
	}
	cols, _, _ := unstructured.NestedSlice(versions[0].(map[string]any), "additionalPrinterColumns")
	var names []string
	for _, col := range cols {
		name, _, _ := unstructured.NestedString(col.(map[string]any), "name")
		names = append(names, name)
	}
	return names
}
