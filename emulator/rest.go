package emulator

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// match returns the URI labels when a request's method, path segments and query match the
// route.
func match(r *models.Route, method string, segments []string, query url.Values) (map[string]string, bool) {
	if method != r.Method {
		return nil, false
	}
	for k, v := range r.Query {
		got, ok := query[k]
		if !ok || (v != "" && (len(got) == 0 || got[0] != v)) {
			return nil, false
		}
	}
	labels := map[string]string{}
	for i, seg := range r.Segments {
		if strings.HasSuffix(seg, "+}") {
			if i >= len(segments) {
				return nil, false
			}
			labels[strings.Trim(seg, "{+}")] = strings.Join(segments[i:], "/")
			return labels, true
		}
		if i >= len(segments) {
			return nil, false
		}
		if strings.HasPrefix(seg, "{") {
			labels[strings.Trim(seg, "{}")] = segments[i]
		} else if seg != segments[i] {
			return nil, false
		}
	}
	return labels, len(segments) == len(r.Segments)
}

// matchREST finds the operation a REST request is for, among all the operations of the
// service's model. An x-id query parameter naming an operation (the SDK sends one where paths
// are shared) decides; otherwise an operation is eligible only when the headers and query
// parameters it requires are present, and the route with the most constraints wins, as AWS's
// routing does (GET /{Bucket}?versioning over GET /{Bucket}, CopyObject over PutObject when
// x-amz-copy-source is sent).
func matchREST(svc *core.Service, r *http.Request) (string, map[string]string) {
	path := r.URL.EscapedPath()
	var segments []string
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if s, err := url.PathUnescape(seg); err == nil {
			segments = append(segments, s)
		}
	}
	if len(segments) == 1 && segments[0] == "" {
		segments = nil
	}
	query := r.URL.Query()
	xid := query.Get("x-id")
	best, bestScore := "", -1
	var bestLabels map[string]string
	routes := svc.Model.Routes()
	for i := range routes {
		rt := &routes[i]
		op := rt.Operation
		labels, ok := match(rt, r.Method, segments, query)
		if !ok {
			continue
		}
		if xid != "" {
			if op == xid {
				return op, byMember(svc, op, labels)
			}
			continue
		}
		headers, params := rt.RequiredHeaders, rt.RequiredQuery
		eligible := true
		for _, h := range headers {
			eligible = eligible && r.Header.Get(h) != ""
		}
		for _, q := range params {
			_, present := query[q]
			eligible = eligible && present
		}
		// Ties (a deprecated operation sharing its successor's route, such as GetBucketLifecycle)
		// go to the operation the emulator implements.
		score := 2 * (10*len(rt.Query) + len(headers) + len(params))
		if _, implemented := svc.Operations[op]; implemented {
			score++
		}
		if eligible && score > bestScore {
			best, bestScore, bestLabels = op, score, labels
		}
	}
	return best, byMember(svc, best, bestLabels)
}

// byMember adds to the labels of a route the same values keyed by the input members they fill,
// for schemas (the SDK's own) that know members but not the model's label names.
func byMember(svc *core.Service, op string, labels map[string]string) map[string]string {
	for label, member := range svc.Model.LabelMembers(op) {
		if v, ok := labels[label]; ok {
			labels[member] = v
		}
	}
	return labels
}

// decodeChunked removes the aws-chunked framing ("<hex size>[;ext]\r\n<data>\r\n ... 0\r\n
// <trailers>") that the SDK uses for streamed uploads with checksums.
func decodeChunked(body []byte) ([]byte, error) {
	rd := bufio.NewReader(bytes.NewReader(body))
	var out bytes.Buffer
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("read chunk header: %w", err)
		}
		sizeText, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		size, err := strconv.ParseInt(sizeText, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("bad chunk size %q", sizeText)
		}
		if size == 0 {
			return out.Bytes(), nil
		}
		if _, err := io.CopyN(&out, rd, size); err != nil {
			return nil, fmt.Errorf("read chunk: %w", err)
		}
		if _, err := rd.ReadString('\n'); err != nil {
			return nil, fmt.Errorf("read chunk end: %w", err)
		}
	}
}
