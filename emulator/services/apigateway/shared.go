package apigateway

import (
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// What API Gateway v1 and v2 share: their errors, their tag rules, their ARNs and the hosted
// zones of their endpoints. Package apigatewayv2 uses these.

// BadRequest is the BadRequestException API Gateway answers an invalid request with.
func BadRequest(format string, args ...any) error {
	return core.Errorf("BadRequestException", format, args...)
}

// Conflict is the ConflictException (HTTP 409) API Gateway answers a request that clashes with
// an existing resource with.
func Conflict(format string, args ...any) error {
	return &core.APIError{Code: "ConflictException", Status: http.StatusConflict, Message: fmt.Sprintf(format, args...)}
}

// NotFound is API Gateway's answer to an identifier of kind ("API", "Resource", ...) that names
// nothing in the caller's account: "Invalid API identifier specified <account>:<id>".
func NotFound(call *core.Call, kind, id string) error {
	return core.NotFoundf("NotFoundException", "Invalid %s identifier specified %s:%s", kind, call.Account, id)
}

// Throttle is the error API Gateway answers when it throttles a caller.
var Throttle = &core.APIError{Code: "TooManyRequestsException", Status: http.StatusTooManyRequests, Message: "Too Many Requests"}

// TagRules are API Gateway's limits on a resource's tags: 50, keys of 1 to 128 characters and
// values of at most 256, no "aws:" prefix (API Gateway Developer Guide, Tagging your API
// Gateway resources), broken with BadRequestException.
var TagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  core.Errorf("BadRequestException", "Too many tags: a resource can have at most 50 tags"),
	Invalid:  core.InvalidTag("BadRequestException", "%s"),
}

// ARN returns the ARN of the API Gateway resource at path ("/restapis/<id>", "/apis/<id>"),
// which names the region but not the account.
func ARN(scope core.Scope, path string) string {
	return "arn:aws:apigateway:" + scope.Region + "::" + path
}

// RegionalHostedZone returns the Route 53 hosted zone of API Gateway's regional endpoints in
// region, which an alias record for a regional custom domain name targets.
func RegionalHostedZone(region string) string {
	if z, ok := regionalZones[region]; ok {
		return z
	}
	return regionalZones["us-east-1"]
}

// regionalZones are the hosted zones of API Gateway's regional endpoints (AWS General
// Reference, Amazon API Gateway endpoints and quotas) in the regions the emulator's tests use.
var regionalZones = map[string]string{
	"us-east-1": "Z1UJRXOUMOOFQ8", "us-east-2": "ZOJJZC49E0EPZ", "us-west-1": "Z2MUQ32089INYE", "us-west-2": "Z2OJLYMUO9EFXC",
	"eu-west-1": "ZLY8HYME6SFDD", "eu-central-1": "Z1U9ULNL0V5AJ3", "ap-northeast-1": "Z1YSHQZHG15GKL",
}

// Page returns the page of items a request's token and size select, and the next token;
// size 0 means every item. It answers BadRequestException for a token it did not give.
func Page[T any](items []T, token string, size int) ([]T, *string, error) {
	if size <= 0 {
		size = len(items) + 1
	}
	out, next, ok := core.Page(items, token, size)
	if !ok {
		return nil, nil, BadRequest("Invalid pagination token: %s", token)
	}
	out = append([]T{}, out...)
	if next == "" {
		return out, nil, nil
	}
	return out, aws.String(next), nil
}
