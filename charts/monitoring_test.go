package charts

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/prometheus/promql/parser"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	// The operators' metrics, and controller-runtime's controller and work queue metrics, are
	// registered by the packages every operator links.
	_ "github.com/runner-codes/infra-operator/shared/operator"
)

// prometheusOwn are the series Prometheus itself makes for every target, which rules may name.
var prometheusOwn = []string{"up"}

// exported returns the names of the series the operators export: every metric registered in
// controller-runtime's registry, with the _bucket, _sum and _count series of histograms and
// summaries.
func exported(t *testing.T) map[string]bool {
	t.Helper()
	descs := make(chan *prometheus.Desc)
	go func() {
		crmetrics.Registry.(*prometheus.Registry).Describe(descs)
		close(descs)
	}()
	fqName := regexp.MustCompile(`fqName: "([^"]+)"`)
	names := map[string]bool{}
	for d := range descs {
		m := fqName.FindStringSubmatch(d.String())
		if m == nil {
			t.Fatalf("no fqName in %s", d)
		}
		for _, suffix := range []string{"", "_bucket", "_sum", "_count"} {
			names[m[1]+suffix] = true
		}
	}
	if !names["infra_operator_aws_requests_total"] || !names["workqueue_depth"] {
		t.Fatalf("the registry lacks the operators' metrics: %d names", len(names))
	}
	return names
}

// metricNames parses expr as PromQL and returns the metric names its selectors name; dashboard
// variables of the range ($__rate_interval) are read as 5m.
func metricNames(expr string) ([]string, error) {
	e, err := parser.ParseExpr(strings.ReplaceAll(expr, "$__rate_interval", "5m"))
	if err != nil {
		return nil, err
	}
	var names []string
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			names = append(names, vs.Name)
		}
		return nil
	})
	return names, nil
}

// checkExpr fails t when expr does not parse or names a series the operators do not export.
func checkExpr(t *testing.T, where, expr string, known map[string]bool) {
	t.Helper()
	names, err := metricNames(expr)
	if err != nil {
		t.Errorf("%s: %v\n%s", where, err, expr)
		return
	}
	if len(names) == 0 {
		t.Errorf("%s names no metric: %s", where, expr)
	}
	for _, n := range names {
		if n == "" || (!known[n] && !slices.Contains(prometheusOwn, n)) {
			t.Errorf("%s names %q, which the operators do not export: %s", where, n, expr)
		}
	}
}

// TestPrometheusRules renders each family's PrometheusRule and checks every alert: its
// expression parses as PromQL and names only series the operators export, it selects the
// family's own metrics Service, it has a severity, a summary and a description, and no two
// alerts share a name.
func TestPrometheusRules(t *testing.T) {
	known := exported(t)
	for _, family := range Families() {
		m := mustRender(t, family, map[string]any{"metrics": map[string]any{"prometheusRule": map[string]any{"enabled": true}}})
		groups, _, _ := unstructured.NestedSlice(m.get(t, "PrometheusRule/test-"+family).Object, "spec", "groups")
		seen := map[string]bool{}
		for _, g := range groups {
			rules, _, _ := unstructured.NestedSlice(g.(map[string]any), "rules")
			for _, r := range rules {
				rule := r.(map[string]any)
				alert, _ := rule["alert"].(string)
				where := family + " alert " + alert
				if alert == "" || seen[alert] {
					t.Errorf("%s: an alert without a name or named twice", where)
				}
				seen[alert] = true
				expr, _ := rule["expr"].(string)
				checkExpr(t, where, expr, known)
				if !strings.Contains(expr, `job="test-`+family+`-metrics"`) {
					t.Errorf("%s does not select the family's metrics Service: %s", where, expr)
				}
				if sev, _, _ := unstructured.NestedString(rule, "labels", "severity"); sev != "warning" && sev != "critical" {
					t.Errorf("%s: severity %q", where, sev)
				}
				for _, a := range []string{"summary", "description"} {
					if v, _, _ := unstructured.NestedString(rule, "annotations", a); v == "" {
						t.Errorf("%s has no %s", where, a)
					}
				}
			}
		}
		if len(seen) < 10 {
			t.Errorf("%s: %d alerts rendered, want the 10 the chart defines", family, len(seen))
		}
	}
	if _, err := render("data", nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := mustRender(t, "data", nil)["PrometheusRule/test-data"]; ok {
		t.Error("the PrometheusRule is rendered although metrics.prometheusRule.enabled is false")
	}
}

// TestMonitoringRuleThresholds checks that the alerts take their thresholds from the values.
func TestMonitoringRuleThresholds(t *testing.T) {
	m := mustRender(t, "caching", map[string]any{"metrics": map[string]any{"prometheusRule": map[string]any{
		"enabled": true, "notReadyMinutes": 45, "queueDepth": 7, "additionalLabels": map[string]any{"team": "platform"}}}})
	groups, _, _ := unstructured.NestedSlice(m.get(t, "PrometheusRule/test-caching").Object, "spec", "groups")
	exprs := map[string]string{}
	for _, r := range groups[0].(map[string]any)["rules"].([]any) {
		rule := r.(map[string]any)
		exprs[rule["alert"].(string)] = rule["expr"].(string)
		if team, _, _ := unstructured.NestedString(rule, "labels", "team"); team != "platform" {
			t.Errorf("alert %s lacks the additional label team=platform", rule["alert"])
		}
	}
	if !strings.HasSuffix(exprs["InfraOperatorResourcesNotReady"], "> 2700") {
		t.Errorf("not-Ready alert %q does not wait 45 minutes (2700 s)", exprs["InfraOperatorResourcesNotReady"])
	}
	if !strings.HasSuffix(exprs["InfraOperatorQueueBacklog"], "> 7") {
		t.Errorf("queue alert %q does not take queueDepth 7", exprs["InfraOperatorQueueBacklog"])
	}
}

// grafanaDashboard is the part of a Grafana dashboard the test reads.
type grafanaDashboard struct {
	UID    string `json:"uid"`
	Panels []struct {
		Type    string `json:"type"`
		Title   string `json:"title"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
	Templating struct {
		List []struct {
			Name       string `json:"name"`
			Definition string `json:"definition"`
		} `json:"list"`
	} `json:"templating"`
}

// TestDashboard renders the umbrella's dashboard ConfigMap and checks that every panel's and
// every variable's query parses as PromQL and names only series the operators export, and
// that it has rows for families, kinds, AWS providers and the Kubernetes side.
func TestDashboard(t *testing.T) {
	known := exported(t)
	m := mustRender(t, Umbrella, map[string]any{"monitoring": map[string]any{"dashboard": map[string]any{"enabled": true}}})
	cm := m.get(t, "ConfigMap/test-dashboard")
	if v, _, _ := unstructured.NestedString(cm.Object, "metadata", "labels", "grafana_dashboard"); v != "1" {
		t.Errorf("the dashboard ConfigMap lacks the sidecar label grafana_dashboard=1")
	}
	text, _, _ := unstructured.NestedString(cm.Object, "data", "infra-operator.json")
	var d grafanaDashboard
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}
	var rows []string
	queries := 0
	for _, p := range d.Panels {
		if p.Type == "row" {
			rows = append(rows, p.Title)
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, q := range p.Targets {
			checkExpr(t, "panel "+p.Title, q.Expr, known)
			queries++
		}
	}
	if want := []string{"Families", "Kinds", "AWS, per provider", "Kubernetes side"}; !slices.Equal(rows, want) {
		t.Errorf("rows %v, want %v", rows, want)
	}
	labelValues := regexp.MustCompile(`^label_values\((.+), *[a-z_]+\)$`)
	for _, v := range d.Templating.List {
		if v.Definition == "" {
			continue
		}
		sel := labelValues.FindStringSubmatch(v.Definition)
		if sel == nil {
			t.Errorf("variable %s: %q is not label_values(selector, label)", v.Name, v.Definition)
			continue
		}
		checkExpr(t, "variable "+v.Name, sel[1], known)
	}
	t.Logf("%d panels' %d queries checked", len(d.Panels)-len(rows), queries)
	if _, ok := mustRender(t, Umbrella, nil)["ConfigMap/test-dashboard"]; ok {
		t.Error("the dashboard is rendered although monitoring.dashboard.enabled is false")
	}
}
