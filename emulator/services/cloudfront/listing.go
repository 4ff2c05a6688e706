package cloudfront

import (
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listing holds the members CloudFront's lists share (DistributionList, OriginAccessControlList,
// CachePolicyList and their kin); core.Fill copies them into the SDK's list type, which leaves
// out those it lacks (the policies' lists have no Marker or IsTruncated).
type listing[S any] struct {
	Marker      *string
	NextMarker  *string
	MaxItems    *int32
	Quantity    *int32
	IsTruncated *bool
	Items       []S
}

// listPage returns the page of items, in ascending order of their keys, that a list request's
// Marker and MaxItems select, as the SDK's list L of the summary of each.
func listPage[L, T, S any](items []T, key func(T) string, marker *string, maxItems *int32, summary func(T) S) *L {
	size := pageSize(maxItems)
	page, next := pageAfter(items, key, aws.ToString(marker), size)
	l := listing[S]{Marker: aws.String(aws.ToString(marker)), MaxItems: aws.Int32(int32(size)), IsTruncated: aws.Bool(next != ""),
		Quantity: aws.Int32(int32(len(page))), Items: make([]S, 0, len(page))}
	for _, v := range page {
		l.Items = append(l.Items, summary(v))
	}
	if next != "" {
		l.NextMarker = aws.String(next)
	}
	out := new(L)
	core.Fill(out, &l)
	return out
}

// byID returns the values of m, resources by id, in id order.
func byID[T any](m map[string]T) []T {
	out := make([]T, 0, len(m))
	for _, id := range core.SortedKeys(m) {
		out = append(out, m[id])
	}
	return out
}
