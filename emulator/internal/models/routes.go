package models

import (
	"sort"
	"strings"
)

// Route is a REST operation's binding as routing needs it: method, path template, the query
// parameters its URI fixes, and the headers and query parameters its input requires.
type Route struct {
	Operation string
	Method    string
	// Segments of the path template: "{Bucket}", "{Key+}" or literals.
	Segments []string
	// Query holds the parameters the URI template fixes; "" matches any value.
	Query map[string]string
	// RequiredHeaders and RequiredQuery are the bindings the input requires.
	RequiredHeaders, RequiredQuery []string
}

// Routes returns the routes of every operation with an HTTP binding, sorted by operation name.
// They are parsed once per model.
func (m *Model) Routes() []Route {
	m.routesOnce.Do(func() {
		for op := range m.Operations {
			if b := m.HTTP(op); b != nil {
				m.routes = append(m.routes, m.parseRoute(op, b))
			}
		}
		sort.Slice(m.routes, func(i, j int) bool { return m.routes[i].Operation < m.routes[j].Operation })
	})
	return m.routes
}

func (m *Model) parseRoute(op string, b *HTTPBinding) Route {
	path, rawQuery, _ := strings.Cut(b.RequestURI, "?")
	r := Route{Operation: op, Method: b.Method, Query: map[string]string{}}
	for _, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		if seg != "" {
			r.Segments = append(r.Segments, seg)
		}
	}
	for _, kv := range strings.Split(rawQuery, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		r.Query[k] = v
	}
	r.RequiredHeaders, r.RequiredQuery = m.RequiredBindings(op)
	return r
}
