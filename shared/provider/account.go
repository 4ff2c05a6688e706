package provider

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// account is the AWS account of a session's credentials, asked of STS once.
type account struct {
	mu sync.Mutex
	id string
}

// AccountID returns the AWS account the session's credentials belong to, asked of STS
// GetCallerIdentity on first use and remembered for the session's life, for the ARNs a kind
// builds that AWS does not return (an API Gateway API's execution ARN). A failed call is
// asked again next time.
func (s *Session) AccountID(ctx context.Context) (string, error) {
	a := Client(s, "sts-account", func(aws.Config) *account { return &account{} })
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.id != "" {
		return a.id, nil
	}
	out, err := sts.NewFromConfig(s.Config).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return "", fmt.Errorf("get the account of the credentials from STS: %w", err)
	}
	a.id = aws.ToString(out.Account)
	return a.id, nil
}
