package ec2util

import "context"

// RemoveTags removes the tags keys from resource id.
func RemoveTags(ctx context.Context, api TagAPI, id string, keys ...string) error {
	return tagCalls(api, id)(ctx, nil, keys)
}
