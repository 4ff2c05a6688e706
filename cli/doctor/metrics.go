package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// scrapeTimeout bounds one request to a metrics endpoint, and maxBody how much of its answer is
// read.
const (
	scrapeTimeout = 5 * time.Second
	maxBody       = 1 << 20
)

// checkMetrics asks each Deployment's metrics Service (<fullname>-metrics, port "metrics")
// for /metrics through the API server's service proxy: over HTTPS when the operator serves
// secure metrics, which then refuse the proxy's unauthenticated request (that answer is
// enough: the endpoint is up), over HTTP otherwise.
func (k *cluster) checkMetrics(ctx context.Context, deps []deployment) []Row {
	var rows []Row
	for _, d := range deps {
		rows = append(rows, k.scrape(ctx, d))
	}
	return rows
}

// scrape is the row of one Deployment's metrics endpoint.
func (k *cluster) scrape(ctx context.Context, d deployment) Row {
	service := d.obj.Name + "-metrics"
	object := d.obj.Namespace + "/" + service
	if d.opts.MetricsAddress == "0" {
		return warn(CheckMetrics, object, "metrics are off (--metrics-bind-address=0)", upgradeFix(d, "metrics.port=8080"))
	}
	scheme := "http"
	if d.opts.MetricsSecure {
		scheme = "https"
	}
	unreachableFix := fmt.Sprintf("kubectl -n %s get endpointslices -l kubernetes.io/service-name=%s; kubectl -n %s logs deploy/%s",
		d.obj.Namespace, service, d.obj.Namespace, d.obj.Name)
	code, body, err := k.get(ctx, fmt.Sprintf("/api/v1/namespaces/%s/services/%s:%s:metrics/proxy/metrics", d.obj.Namespace, scheme, service))
	if err != nil {
		return warn(CheckMetrics, object, "no answer: "+err.Error(), unreachableFix)
	}
	if st, ok := apiServerStatus(body); ok {
		err := apierrors.FromObject(st)
		switch {
		case apierrors.IsForbidden(err):
			return cannotCheck(CheckMetrics, object, "get services/proxy in namespace "+d.obj.Namespace, err)
		case apierrors.IsNotFound(err):
			return warn(CheckMetrics, object, "no Service "+service, upgradeFix(d, "metrics.port=8080"))
		default:
			return warn(CheckMetrics, object, "unreachable through the API server: "+st.Message, unreachableFix)
		}
	}
	switch {
	case code == http.StatusOK:
		return ok(CheckMetrics, object, fmt.Sprintf("answered over %s (%d bytes)", scheme, len(body)))
	case d.opts.MetricsSecure && (code == http.StatusUnauthorized || code == http.StatusForbidden):
		return ok(CheckMetrics, object, fmt.Sprintf("answered over https, refusing the API server proxy's unauthenticated request (%d) as secure metrics do", code))
	default:
		return warn(CheckMetrics, object, fmt.Sprintf("answered %d: %.200s", code, body), unreachableFix)
	}
}

// get sends a GET for path to the API server, within scrapeTimeout, and returns the status
// code and the body (its first maxBody bytes).
func (k *cluster) get(ctx context.Context, path string) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, scrapeTimeout)
	defer cancel()
	u, err := url.JoinPath(k.host, path)
	if err != nil {
		return 0, nil, fmt.Errorf("build the URL of %s: %w", path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil, fmt.Errorf("build the request for %s: %w", path, err)
	}
	resp, err := k.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("get %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, nil, fmt.Errorf("read the answer to %s: %w", path, err)
	}
	return resp.StatusCode, body, nil
}

// apiServerStatus decodes body when it is a Status object: the API server's own answer
// (forbidden, no endpoints, connection refused), not the metrics endpoint's.
func apiServerStatus(body []byte) (*metav1.Status, bool) {
	st := &metav1.Status{}
	if json.Unmarshal(body, st) != nil || st.Kind != "Status" {
		return nil, false
	}
	return st, true
}
