package apigateway

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete withdraws the API's invoke grants, deletes its mapping and custom domain name
// (API Gateway refuses to delete a mapped API), the API with its routes, integrations and
// stages, then the VPC links the object owns (which the API's integrations used). What is
// already gone is success.
func (d *httpDriver) Delete(ctx context.Context, o *v1alpha1.APIGateway, obs managed.Observation[State]) error {
	if obs.State == nil || obs.State.HTTP == nil {
		return nil
	}
	st := obs.State.HTTP
	if st.API != nil {
		if err := d.revokeInvokeGrants(ctx, o, aws.ToString(st.API.ApiId)); err != nil {
			return err
		}
	}
	if st.Domain != nil {
		if err := d.deleteHTTPDomain(ctx, st.Domain); err != nil {
			return err
		}
	}
	if st.API != nil {
		_, err := d.http.DeleteApi(ctx, &apigatewayv2.DeleteApiInput{ApiId: st.API.ApiId})
		if err := notFoundIsGone(err, "delete API %s", aws.ToString(st.API.ApiId)); err != nil {
			return err
		}
	}
	for _, l := range st.VPCLinks {
		if err := d.deleteVPCLink(ctx, aws.ToString(l.VpcLinkId)); err != nil {
			return err
		}
	}
	return nil
}
