package edge_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestAPIGatewayHTTPPrivateIntegration applies testdata/apigateway-http-private.yaml: an HTTP API
// whose route reaches an internal ALB of the networking family through the API's VPC link. The
// API is Ready once the VPC link is AVAILABLE, with the route's integration sent through the
// link to the listener on the spec's port; a port the load balancer has no listener on is
// reported in the Ready condition; new subnets replace the VPC link (the integration moves to
// the new one, the old one is deleted); deleting the object deletes the API and its VPC link.
func TestAPIGatewayHTTPPrivateIntegration(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	kubetest.ApplySeed(t, h.c, filepath.Join("testdata", "apigateway-http-private.yaml"), ns)
	o := kubetest.WaitFor(t, h.c, &v1alpha1.APIGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-api"}}, time.Minute, "Ready",
		func(a *v1alpha1.APIGateway) bool { return isReady(a) })
	id, link := o.Status.APIID, o.Status.VPCLinkID
	if o.Status.VPCLinkStatus != "AVAILABLE" || link == "" {
		t.Errorf("status = %+v", o.Status)
	}
	l, err := h.v2.GetVpcLink(context.Background(), &apigatewayv2.GetVpcLinkInput{VpcLinkId: aws.String(link)})
	if err != nil || len(l.SubnetIds) != 1 || len(l.SecurityGroupIds) != 1 || l.Tags[shared.TagOwnerUID] != string(o.UID) {
		t.Fatalf("VPC link = %+v, %v", l, err)
	}
	it := h.readAPI(t, id).integrations["ANY /orders/{proxy+}"]
	if it.IntegrationType != types.IntegrationTypeHttpProxy || it.ConnectionType != types.ConnectionTypeVpcLink || aws.ToString(it.ConnectionId) != link ||
		!strings.Contains(aws.ToString(it.IntegrationUri), ":listener/app/orders/") || aws.ToString(it.IntegrationMethod) != "ANY" {
		t.Errorf("integration = %+v", it)
	}

	// A port without a listener is said in the Ready condition.
	h.patchSpec(t, o, `{"routes":[{"routeKey":"ANY /orders/{proxy+}","integration":{"listener":{"albRef":{"name":"orders"},"port":8080}}}]}`)
	kubetest.WaitFor(t, h.c, o, 30*time.Second, "the missing listener reported", func(a *v1alpha1.APIGateway) bool {
		c := meta.FindStatusCondition(a.Status.Conditions, "Ready")
		return c != nil && c.Status == metav1.ConditionFalse && strings.Contains(c.Message, "no listener on port 8080")
	})

	// Other subnets replace the VPC link.
	h.patchSpec(t, o, `{"routes":[{"routeKey":"ANY /orders/{proxy+}","integration":{"listener":{"albRef":{"name":"orders"},"port":80}}}],
		"vpcLink":{"subnetRefs":[{"name":"private-a"},{"name":"private-b"}]}}`)
	o = kubetest.WaitFor(t, h.c, o, time.Minute, "a new VPC link", func(a *v1alpha1.APIGateway) bool {
		return isReady(a) && a.Status.VPCLinkID != link && a.Status.VPCLinkStatus == "AVAILABLE"
	})
	if it := h.readAPI(t, id).integrations["ANY /orders/{proxy+}"]; aws.ToString(it.ConnectionId) != o.Status.VPCLinkID {
		t.Errorf("integration after the replacement = %+v, want VPC link %s", it, o.Status.VPCLinkID)
	}
	kubetest.ResyncUntil(t, h.c, o, "the old VPC link deleted", func() bool {
		_, err := h.v2.GetVpcLink(context.Background(), &apigatewayv2.GetVpcLinkInput{VpcLinkId: aws.String(link)})
		return awserr.IsNotFound(err)
	})

	link = o.Status.VPCLinkID
	kubetest.Delete(t, h.c, o)
	if _, err := h.v2.GetApi(context.Background(), &apigatewayv2.GetApiInput{ApiId: aws.String(id)}); !awserr.IsNotFound(err) {
		t.Errorf("the API after its object went: %v", err)
	}
	if _, err := h.v2.GetVpcLink(context.Background(), &apigatewayv2.GetVpcLinkInput{VpcLinkId: aws.String(link)}); !awserr.IsNotFound(err) {
		t.Errorf("the VPC link after its object went: %v", err)
	}
}
