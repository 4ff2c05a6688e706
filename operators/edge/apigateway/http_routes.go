package apigateway

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// targetPrefix starts a route's target, "integrations/<id>".
const targetPrefix = "integrations/"

// readHTTPRoutes lists the API's routes and its integrations (one GetRoutes and one
// GetIntegrations for up to 500 of each), by route key and by integration id.
func (d *httpDriver) readHTTPRoutes(ctx context.Context, id string) (map[string]types.Route, map[string]types.Integration, error) {
	routes := map[string]types.Route{}
	for token := (*string)(nil); ; {
		out, err := d.http.GetRoutes(ctx, &apigatewayv2.GetRoutesInput{ApiId: aws.String(id), MaxResults: aws.String("500"), NextToken: token})
		if err != nil {
			return nil, nil, fmt.Errorf("list the routes of API %s: %w", id, err)
		}
		for _, r := range out.Items {
			routes[aws.ToString(r.RouteKey)] = r
		}
		if token = out.NextToken; token == nil {
			break
		}
	}
	integrations := map[string]types.Integration{}
	for token := (*string)(nil); ; {
		out, err := d.http.GetIntegrations(ctx, &apigatewayv2.GetIntegrationsInput{ApiId: aws.String(id), MaxResults: aws.String("500"), NextToken: token})
		if err != nil {
			return nil, nil, fmt.Errorf("list the integrations of API %s: %w", id, err)
		}
		for _, it := range out.Items {
			integrations[aws.ToString(it.IntegrationId)] = it
		}
		if token = out.NextToken; token == nil {
			break
		}
	}
	return routes, integrations, nil
}

// planHTTPRoutes plans the routes and integrations (as readHTTPRoutes found them) of the API
// with id apiID: for each route of the spec, its integration created or updated in place and
// the route created or pointed at it; then the routes the spec does not name deleted, and the
// integrations no route of the spec uses. A route whose listener cannot be reached yet (the
// VPC link is not AVAILABLE, the load balancer has no listener on the port) is left as it is,
// and the reason returned.
func (d *httpDriver) planHTTPRoutes(ctx context.Context, o *v1alpha1.APIGateway, apiID string, link *types.VpcLink,
	routes map[string]types.Route, integrations map[string]types.Integration, plan *managed.Plan) (string, error) {
	listeners := listenerCache{}
	used := map[string]bool{} // integrations kept
	inSpec := map[string]bool{}
	waiting := ""
	for i, r := range o.Spec.Routes {
		inSpec[r.RouteKey] = true
		cur, exists := routes[r.RouteKey]
		itID := strings.TrimPrefix(aws.ToString(cur.Target), targetPrefix)
		it, hasIt := integrations[itID]
		hasIt = hasIt && exists && !used[itID]
		want, wait, err := d.wantHTTPIntegration(ctx, o, r, link, listeners)
		if err != nil {
			return "", fmt.Errorf("spec.routes[%d] (%q): %w", i, r.RouteKey, err)
		}
		if wait != "" {
			if waiting == "" {
				waiting = fmt.Sprintf("route %q waits: %s", r.RouteKey, wait)
			}
			if hasIt {
				used[itID] = true // kept as it is until the listener can be reached
			}
			continue
		}
		if !hasIt {
			plan.Add("routes", func(ctx context.Context) error { return d.createHTTPRoute(ctx, apiID, r, want, cur.RouteId) })
			continue
		}
		used[itID] = true
		if !sameIntegration(want, it) {
			plan.Add("routes", func(ctx context.Context) error {
				_, err := d.http.UpdateIntegration(ctx, &apigatewayv2.UpdateIntegrationInput{ApiId: aws.String(apiID), IntegrationId: aws.String(itID),
					IntegrationType: want.IntegrationType, IntegrationUri: want.IntegrationUri, IntegrationMethod: want.IntegrationMethod,
					ConnectionType: want.ConnectionType, ConnectionId: want.ConnectionId, PayloadFormatVersion: want.PayloadFormatVersion,
					TimeoutInMillis: want.TimeoutInMillis})
				return managed.Wrap(err, "update the integration of route %q of API %s", r.RouteKey, apiID)
			})
		}
		if string(cur.AuthorizationType) != authorization(r) {
			plan.Add("routes", func(ctx context.Context) error {
				_, err := d.http.UpdateRoute(ctx, &apigatewayv2.UpdateRouteInput{ApiId: aws.String(apiID), RouteId: cur.RouteId,
					AuthorizationType: types.AuthorizationType(authorization(r))})
				return managed.Wrap(err, "update route %q of API %s", r.RouteKey, apiID)
			})
		}
	}
	for key, r := range routes {
		if !inSpec[key] {
			plan.Add("routes", func(ctx context.Context) error {
				_, err := d.http.DeleteRoute(ctx, &apigatewayv2.DeleteRouteInput{ApiId: aws.String(apiID), RouteId: r.RouteId})
				return notFoundIsGone(err, "delete route %q of API %s", key, apiID)
			})
		}
	}
	for id := range integrations {
		if !used[id] {
			plan.Add("routes", func(ctx context.Context) error {
				_, err := d.http.DeleteIntegration(ctx, &apigatewayv2.DeleteIntegrationInput{ApiId: aws.String(apiID), IntegrationId: aws.String(id)})
				return notFoundIsGone(err, "delete integration %s of API %s", id, apiID)
			})
		}
	}
	return waiting, nil
}

// createHTTPRoute creates the route's integration, then the route pointing at it, or, when the
// route exists (routeID is set) and lost its integration, points the route at the new one.
func (d *httpDriver) createHTTPRoute(ctx context.Context, apiID string, r v1alpha1.Route, want types.Integration, routeID *string) error {
	it, err := d.http.CreateIntegration(ctx, &apigatewayv2.CreateIntegrationInput{ApiId: aws.String(apiID),
		IntegrationType: want.IntegrationType, IntegrationUri: want.IntegrationUri, IntegrationMethod: want.IntegrationMethod,
		ConnectionType: want.ConnectionType, ConnectionId: want.ConnectionId, PayloadFormatVersion: want.PayloadFormatVersion,
		TimeoutInMillis: want.TimeoutInMillis})
	if err != nil {
		return managed.Wrap(err, "create the integration of route %q of API %s", r.RouteKey, apiID)
	}
	target := aws.String(targetPrefix + aws.ToString(it.IntegrationId))
	auth := types.AuthorizationType(authorization(r))
	if routeID != nil {
		_, err = d.http.UpdateRoute(ctx, &apigatewayv2.UpdateRouteInput{ApiId: aws.String(apiID), RouteId: routeID, Target: target, AuthorizationType: auth})
		return managed.Wrap(err, "point route %q of API %s at its integration", r.RouteKey, apiID)
	}
	_, err = d.http.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: aws.String(apiID), RouteKey: aws.String(r.RouteKey), Target: target, AuthorizationType: auth})
	return managed.Wrap(err, "create route %q of API %s", r.RouteKey, apiID)
}

// authorization returns the route's authorization type, NONE when the spec names none.
func authorization(r v1alpha1.Route) string {
	if r.AuthorizationType == "" {
		return string(types.AuthorizationTypeNone)
	}
	return r.AuthorizationType
}

// wantHTTPIntegration returns the integration a route of the spec asks for: AWS_PROXY to a Lambda
// function (its ARN for HTTP APIs, its invocation URI for WebSocket APIs), HTTP_PROXY to a URL,
// or HTTP_PROXY through the VPC link to a load balancer listener. For a listener that cannot be
// reached yet it returns why instead.
func (d *httpDriver) wantHTTPIntegration(ctx context.Context, o *v1alpha1.APIGateway, r v1alpha1.Route, link *types.VpcLink, listeners listenerCache) (types.Integration, string, error) {
	in := r.Integration
	ws := o.Spec.ProtocolType == v1alpha1.ProtocolWebSocket
	timeout := in.TimeoutMilliseconds
	switch {
	case timeout != 0:
	case ws:
		timeout = 29000
	default:
		timeout = 30000
	}
	it := types.Integration{ConnectionType: types.ConnectionTypeInternet, TimeoutInMillis: aws.Int32(timeout)}
	switch {
	case in.LambdaFunctionARN != "":
		it.IntegrationType, it.IntegrationMethod = types.IntegrationTypeAwsProxy, aws.String("POST")
		it.IntegrationUri = aws.String(in.LambdaFunctionARN)
		if ws {
			it.IntegrationUri = aws.String(d.lambdaURI(in.LambdaFunctionARN))
		} else {
			it.PayloadFormatVersion = aws.String(cmp.Or(in.PayloadFormatVersion, "2.0"))
		}
	case in.URL != "":
		it.IntegrationType, it.IntegrationUri = types.IntegrationTypeHttpProxy, aws.String(in.URL)
		it.IntegrationMethod = aws.String(urlMethod(ws, r))
		if !ws {
			it.PayloadFormatVersion = aws.String("1.0")
		}
	case in.Listener != nil:
		if link == nil || link.VpcLinkStatus != types.VpcLinkStatusAvailable {
			return it, "the VPC link is not AVAILABLE yet", nil
		}
		arn, err := d.listenerARN(ctx, listeners, in.Listener.LoadBalancerARN, in.Listener.Port)
		if err != nil || arn == "" {
			return it, fmt.Sprintf("load balancer %s has no listener on port %d: add one, or change the route's listener.port", in.Listener.LoadBalancerARN, in.Listener.Port), err
		}
		it.IntegrationType, it.IntegrationUri, it.IntegrationMethod = types.IntegrationTypeHttpProxy, aws.String(arn), aws.String("ANY")
		it.ConnectionType, it.ConnectionId, it.PayloadFormatVersion = types.ConnectionTypeVpcLink, link.VpcLinkId, aws.String("1.0")
	}
	return it, "", nil
}

// urlMethod returns the method a url integration sends: the spec's, else the route's method,
// else ANY (an HTTP API's $default route, WebSocket routes).
func urlMethod(ws bool, r v1alpha1.Route) string {
	if r.Integration.Method != "" {
		return r.Integration.Method
	}
	if method, _, ok := strings.Cut(r.RouteKey, " "); ok && !ws {
		return method
	}
	return "ANY"
}

// sameIntegration reports whether the integration got is the one want describes; the payload
// format version is compared only where the spec decides it (HTTP APIs).
func sameIntegration(want, got types.Integration) bool {
	gotConn := got.ConnectionType
	if gotConn == "" {
		gotConn = types.ConnectionTypeInternet
	}
	return want.IntegrationType == got.IntegrationType && aws.ToString(want.IntegrationUri) == aws.ToString(got.IntegrationUri) &&
		strings.EqualFold(aws.ToString(want.IntegrationMethod), aws.ToString(got.IntegrationMethod)) && want.ConnectionType == gotConn &&
		aws.ToString(want.ConnectionId) == aws.ToString(got.ConnectionId) && aws.ToInt32(want.TimeoutInMillis) == aws.ToInt32(got.TimeoutInMillis) &&
		(want.PayloadFormatVersion == nil || aws.ToString(want.PayloadFormatVersion) == aws.ToString(got.PayloadFormatVersion))
}
