package apigateway

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// corsConfig returns the CORS configuration of an HTTP API's spec, nil when it has none.
func corsConfig(c *shared.CORS) *types.Cors {
	if c == nil {
		return nil
	}
	return &types.Cors{
		AllowOrigins: c.AllowOrigins, AllowMethods: c.AllowMethods, AllowHeaders: c.AllowHeaders, ExposeHeaders: c.ExposeHeaders,
		AllowCredentials: aws.Bool(c.AllowCredentials), MaxAge: aws.Int32(c.MaxAge),
	}
}

// sameCORS reports whether the API's CORS configuration got is the one the spec wants; the
// lists are sets.
func sameCORS(want, got *types.Cors) bool {
	return got != nil && managed.SameSet(want.AllowOrigins, got.AllowOrigins) && managed.SameSet(want.AllowMethods, got.AllowMethods) &&
		managed.SameSet(want.AllowHeaders, got.AllowHeaders) && managed.SameSet(want.ExposeHeaders, got.ExposeHeaders) &&
		aws.ToBool(want.AllowCredentials) == aws.ToBool(got.AllowCredentials) && aws.ToInt32(want.MaxAge) == aws.ToInt32(got.MaxAge)
}
