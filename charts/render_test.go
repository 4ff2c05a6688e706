package charts

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint/support"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestChartsLint runs helm lint on every chart directory, failing on warnings too.
func TestChartsLint(t *testing.T) {
	for _, name := range append(Families(), Umbrella) {
		t.Run(name, func(t *testing.T) {
			l := action.NewLint()
			l.Strict, l.Namespace = true, "infra-system"
			res := l.Run([]string{filepath.Join(".", name)}, map[string]any{})
			for _, msg := range res.Messages {
				if msg.Severity >= support.WarningSev {
					t.Errorf("lint: %s", msg)
				}
			}
			for _, err := range res.Errors {
				t.Errorf("lint: %v", err)
			}
		})
	}
}

// TestFamilyChartRenders checks what a family chart renders with its defaults and with the
// optional parts switched on.
func TestFamilyChartRenders(t *testing.T) {
	for _, family := range Families() {
		t.Run(family, func(t *testing.T) {
			m := mustRender(t, family, nil)
			checkDeployment(t, m.get(t, "Deployment/test-"+family))
			checkRBAC(t, m, family)
			if sa := m.get(t, "ServiceAccount/test-"+family); len(sa.GetAnnotations()) != 0 {
				t.Errorf("ServiceAccount annotations without a roleARN: %v", sa.GetAnnotations())
			}
			m.get(t, "Service/test-"+family+"-metrics")
			if _, ok := m["ServiceMonitor/test-"+family]; ok {
				t.Error("a ServiceMonitor is rendered although metrics.serviceMonitor.enabled is false")
			}
			for key, u := range m {
				if u.GetKind() == "CustomResourceDefinition" {
					checkCRDProtected(t, key, u)
				}
			}
			m.get(t, "CustomResourceDefinition/"+awsProviderCRD)

			arn := "arn:aws:iam::123456789012:role/infra-operator-" + family
			m = mustRender(t, family, map[string]any{
				"serviceAccount":   map[string]any{"roleARN": arn},
				"metrics":          map[string]any{"serviceMonitor": map[string]any{"enabled": true}},
				"crds":             map[string]any{"awsProvider": false},
				"watchNamespaces":  []any{"team-a", "team-b"},
				"leaderElection":   map[string]any{"namespace": "leases"},
				"log":              map[string]any{"level": "debug", "format": "console"},
				"fullnameOverride": "ops",
			})
			if got := m.get(t, "ServiceAccount/ops").GetAnnotations()["eks.amazonaws.com/role-arn"]; got != arn {
				t.Errorf("IRSA annotation = %q, want %q", got, arn)
			}
			m.get(t, "ServiceMonitor/ops")
			if _, ok := m["CustomResourceDefinition/"+awsProviderCRD]; ok {
				t.Error("the AWSProvider CRD is rendered although crds.awsProvider is false")
			}
			m.get(t, "Role/leases/ops-leader-election")
			args := container(t, m.get(t, "Deployment/ops")).Args
			for _, want := range []string{"--namespaces=team-a,team-b", "--leader-election-namespace=leases", "--log-level=debug", "--log-format=console"} {
				if !slices.Contains(args, want) {
					t.Errorf("args %v lack %s", args, want)
				}
			}
		})
	}
}

// checkDeployment checks the Deployment's default arguments, probes and hardening.
func checkDeployment(t *testing.T, u *unstructured.Unstructured) {
	t.Helper()
	c := container(t, u)
	wantArgs := []string{
		"--metrics-bind-address=:8080", "--metrics-secure=true", "--health-probe-bind-address=:8081", "--leader-elect=true",
		"--sync-period=10m", "--provider-revalidation=5m", "--wait-interval=5s",
		"--max-concurrent-reconciles=10", "--kube-api-qps=-1", "--kube-api-burst=0", "--log-level=info", "--log-format=json",
		"--operator-identity-namespaces=*", "--allow-endpoint-override=false", "--adoption-namespaces=*",
	}
	if diff := cmp.Diff(wantArgs, c.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	if want := "ghcr.io/runner-codes/infra-operator-"; !strings.HasPrefix(c.Image, want) || !strings.HasSuffix(c.Image, ":0.1.0") {
		t.Errorf("image %q, want %s<family>:0.1.0", c.Image, want)
	}
	if len(c.Env) != 1 || c.Env[0].Name != "POD_NAMESPACE" || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.FieldRef.FieldPath != "metadata.namespace" {
		t.Errorf("env %+v, want POD_NAMESPACE from metadata.namespace", c.Env)
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" || c.LivenessProbe.HTTPGet.Port.StrVal != "probes" {
		t.Errorf("liveness probe %+v, want /healthz on the probes port", c.LivenessProbe)
	}
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.ReadinessProbe.HTTPGet.Port.StrVal != "probes" {
		t.Errorf("readiness probe %+v, want /readyz on the probes port", c.ReadinessProbe)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources %+v lack requests or limits", c.Resources)
	}
	s := c.SecurityContext
	if s == nil || s.RunAsNonRoot == nil || !*s.RunAsNonRoot || s.ReadOnlyRootFilesystem == nil || !*s.ReadOnlyRootFilesystem ||
		s.AllowPrivilegeEscalation == nil || *s.AllowPrivilegeEscalation || s.Capabilities == nil ||
		!slices.Equal(s.Capabilities.Drop, []corev1.Capability{"ALL"}) || s.SeccompProfile == nil || s.SeccompProfile.Type != "RuntimeDefault" {
		t.Errorf("container securityContext %+v is not hardened", s)
	}
}

// checkCRDProtected checks that the CRD u (rendered as key) survives its tools: Helm keeps it
// on uninstall, and Argo CD neither prunes it nor deletes it with its Application.
func checkCRDProtected(t *testing.T, key string, u *unstructured.Unstructured) {
	t.Helper()
	want := map[string]string{
		"helm.sh/resource-policy":         "keep",
		"argocd.argoproj.io/sync-options": "Prune=false,Delete=false",
	}
	got := map[string]string{}
	for k := range want {
		if v, ok := u.GetAnnotations()[k]; ok {
			got[k] = v
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: protecting annotations (-want +got):\n%s", key, diff)
	}
}

// container decodes the Deployment u and returns its only container.
func container(t *testing.T, u *unstructured.Unstructured) corev1.Container {
	t.Helper()
	var d appsv1.Deployment
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &d); err != nil {
		t.Fatalf("decode the Deployment: %v", err)
	}
	pod := d.Spec.Template.Spec
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Errorf("pod securityContext %+v lacks runAsNonRoot", pod.SecurityContext)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	return pod.Containers[0]
}

// referenced are the kinds of other families that each family's references name.
var referenced = map[string][]string{
	"compute":    {"subnets", "securitygroups", "iamroles", "iaminstanceprofiles", "sqsqueues", "dynamodbtables"},
	"data":       {"kmskeys", "subnets", "securitygroups", "sqsqueues", "snstopics", "lambdafunctions", "iamroles"},
	"messaging":  {"kmskeys"},
	"networking": {"acmcertificates", "cloudfrontdistributions", "apigateways", "ec2instances", "lambdafunctions"},
	"edge":       {"albs", "nlbs", "acmcertificates", "s3buckets", "lambdafunctions", "subnets", "securitygroups"},
	"containers": {"kmskeys", "iamroles", "secretsmanagersecrets", "subnets", "securitygroups", "albs", "nlbs"},
	"caching":    {"subnets", "securitygroups"},
	"security":   {"eksclusters", "route53hostedzones"},
}

// checkRBAC checks that the ClusterRole grants the family's kinds, AWSProviders and
// ClusterAWSProviders, Secrets (read, and create and update for the outputs spec.writeOutputsTo
// names), ConfigMaps (get, create and update, for the same outputs; the compute family also
// reads Lambda deployment packages from them), the namespaces (read), events, and the kinds of
// other families its references name (read), and nothing else, and that the Lease rule is a
// Role of the namespace.
func checkRBAC(t *testing.T, m manifest, family string) {
	t.Helper()
	allowed := map[string]bool{"secrets": true, "namespaces": true, "events": true, "configmaps": true, "tokenreviews": true, "subjectaccessreviews": true}
	// The secure metrics endpoint has the API server review each scraper's token and access.
	exactVerbs := map[string][]string{"secrets": {"create", "get", "list", "patch", "update", "watch"}, "namespaces": {"get"},
		"configmaps": {"create", "get", "patch", "update"}, "tokenreviews": {"create"}, "subjectaccessreviews": {"create"}}
	// Kinds of other families that the family's references name are read (get, list, watch),
	// never written; cli's TestFamiliesMayReadWhatTheyReference checks that none is missing.
	for _, plural := range referenced[family] {
		allowed[plural], exactVerbs[plural] = true, []string{"get", "list", "watch"}
	}
	for _, u := range m {
		if u.GetKind() != "CustomResourceDefinition" {
			continue
		}
		plural, _, _ := unstructured.NestedString(u.Object, "spec", "names", "plural")
		allowed[plural], allowed[plural+"/status"], allowed[plural+"/finalizers"] = true, true, true
	}
	var role rbacv1.ClusterRole
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m.get(t, "ClusterRole/infra-system-test-"+family).Object, &role); err != nil {
		t.Fatalf("decode the ClusterRole: %v", err)
	}
	for _, rule := range role.Rules {
		for _, r := range rule.Resources {
			if !allowed[r] {
				t.Errorf("the ClusterRole grants %s", r)
			}
			if verbs, ok := exactVerbs[r]; ok && !slices.Equal(rule.Verbs, verbs) {
				t.Errorf("the ClusterRole grants %v on %s, want only %v", rule.Verbs, r, verbs)
			}
		}
		if slices.Contains(rule.Verbs, "*") || slices.Contains(rule.Resources, "*") || slices.Contains(rule.APIGroups, "*") {
			t.Errorf("the ClusterRole has a wildcard rule %+v", rule)
		}
	}
	// The provider controller reads both kinds of provider, writes their status and their
	// in-use finalizers.
	need := map[string][]string{
		"awsproviders":                   {"get", "list", "watch"},
		"awsproviders/status":            {"update", "patch"},
		"awsproviders/finalizers":        {"update"},
		"clusterawsproviders":            {"get", "list", "watch"},
		"clusterawsproviders/status":     {"update", "patch"},
		"clusterawsproviders/finalizers": {"update"},
	}
	for resource, verbs := range need {
		for _, verb := range verbs {
			if !grants(role.Rules, "aws-infra-operator.runner.codes", resource, verb) {
				t.Errorf("the ClusterRole does not grant %s on %s", verb, resource)
			}
		}
	}
	m.get(t, "ClusterRoleBinding/infra-system-test-"+family)
	m.get(t, "Role/test-"+family+"-leader-election")
	m.get(t, "RoleBinding/test-"+family+"-leader-election")
}

// grants reports whether one of rules allows verb on resource of group.
func grants(rules []rbacv1.PolicyRule, group, resource, verb string) bool {
	for _, r := range rules {
		if slices.Contains(r.APIGroups, group) && slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) {
			return true
		}
	}
	return false
}

// TestUmbrellaRenders checks that the umbrella renders every enabled family and the shared
// AWSProvider CRD once.
func TestUmbrellaRenders(t *testing.T) {
	m := mustRender(t, Umbrella, nil)
	for _, family := range Families() {
		m.get(t, "Deployment/test-"+family)
	}
	for key, u := range m {
		if u.GetKind() == "CustomResourceDefinition" {
			checkCRDProtected(t, key, u)
		}
	}
	m.get(t, "CustomResourceDefinition/"+awsProviderCRD)
	m = mustRender(t, Umbrella, map[string]any{"compute": map[string]any{"enabled": false}, "data": map[string]any{"log": map[string]any{"level": "debug"}}})
	if _, ok := m["Deployment/test-compute"]; ok {
		t.Error("compute is rendered although compute.enabled is false")
	}
	if args := container(t, m.get(t, "Deployment/test-data")).Args; !slices.Contains(args, "--log-level=debug") {
		t.Errorf("data args %v ignore data.log.level", args)
	}
}

// TestSchemaRejectsBadValues checks that values.schema.json refuses values that would break
// the operator or that are misspelt.
func TestSchemaRejectsBadValues(t *testing.T) {
	cases := map[string]struct {
		chart string
		vals  string
		want  string
	}{
		"WrongType":                    {"data", "replicaCount: two", "replicaCount"},
		"UnknownLogLevel":              {"networking", "log: {level: verbose}", "level"},
		"UnknownLogFormat":             {"data", "log: {format: text}", "format"},
		"UnknownTopLevelKey":           {"data", "replicas: 2", "replicas"},
		"UnknownNestedKey":             {"data", "image: {repo: x}", "repo"},
		"ZeroReconciles":               {"data", "maxConcurrentReconciles: 0", "maxConcurrentReconciles"},
		"BadDuration":                  {"data", "syncPeriod: ten minutes", "syncPeriod"},
		"BadRoleARN":                   {"data", "serviceAccount: {roleARN: my-role}", "roleARN"},
		"ReplicasWithoutElection":      {"data", "replicaCount: 2\nleaderElection: {enabled: false}", "replicaCount"},
		"IdentityNamespacePattern":     {"data", "tenancy: {operatorIdentityNamespaces: [team-*]}", "operatorIdentityNamespaces"},
		"IdentityNamespacesNotAList":   {"data", "tenancy: {operatorIdentityNamespaces: team-a}", "operatorIdentityNamespaces"},
		"AssumeRoleWithoutPattern":     {"data", "tenancy: {assumeRolePolicy: [{namespace: team-a}]}", "roleARNPattern"},
		"AssumeRoleUnknownKey":         {"data", "tenancy: {assumeRolePolicy: [{namespace: a, roleARN: arn:aws:iam::1:role/x}]}", "roleARN"},
		"AssumeRoleNotAnARN":           {"data", "tenancy: {assumeRolePolicy: [{namespace: a, roleARNPattern: my-role}]}", "roleARNPattern"},
		"AssumeRoleComma":              {"data", "tenancy: {assumeRolePolicy: [{namespace: a, roleARNPattern: 'arn:aws:iam::1:role/a,b'}]}", "roleARNPattern"},
		"EndpointOverrideNotBoolean":   {"data", "tenancy: {allowEndpointOverride: sometimes}", "allowEndpointOverride"},
		"STSEndpointNotAURL":           {"data", "tenancy: {stsEndpoint: sts.amazonaws.com}", "stsEndpoint"},
		"UnknownTenancyKey":            {"data", "tenancy: {allowAll: true}", "allowAll"},
		"InstallIDWithSpaces":          {"data", "installID: my install", "installID"},
		"UmbrellaUnknownFamily":        {Umbrella, "databases: {enabled: true}", "databases"},
		"UmbrellaBadFamilyValue":       {Umbrella, "data: {log: {level: verbose}}", "level"},
		"UmbrellaWrongTypeOfSwitch":    {Umbrella, "edge: {enabled: maybe}", "enabled"},
		"UmbrellaUnknownFamilyKeyDeep": {Umbrella, "caching: {image: {registry: x}}", "registry"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			vals, err := chartutil.ReadValues([]byte(tc.vals))
			if err != nil {
				t.Fatalf("values: %v", err)
			}
			_, err = render(tc.chart, vals)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("render %s with %q: error %v, want one naming %s", tc.chart, tc.vals, err, tc.want)
			}
		})
	}
}
