package managed

import "context"

// TagCalls returns the apply function of Plan.AddTags for a service that adds tags and
// removes tag keys with two calls: tag receives the tags to add or overwrite, then untag the
// keys to remove, each called only when it has something to do.
func TagCalls(
	tag func(ctx context.Context, set map[string]string) error,
	untag func(ctx context.Context, remove []string) error,
) func(ctx context.Context, set map[string]string, remove []string) error {
	return func(ctx context.Context, set map[string]string, remove []string) error {
		if len(set) > 0 {
			if err := tag(ctx, set); err != nil {
				return err
			}
		}
		if len(remove) == 0 {
			return nil
		}
		return untag(ctx, remove)
	}
}
