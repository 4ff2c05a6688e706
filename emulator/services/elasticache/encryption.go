package elasticache

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"
)

// encryptionView holds the members that a cluster and a replication group both describe of their
// encryption and AUTH token; core.Fill copies them into types.CacheCluster and
// types.ReplicationGroup, which name and type them alike.
type encryptionView struct {
	AuthTokenEnabled          *bool
	AuthTokenLastModifiedDate *time.Time
	TransitEncryptionEnabled  *bool
	TransitEncryptionMode     types.TransitEncryptionMode
	AtRestEncryptionEnabled   *bool
}

// encryption returns how a configuration encrypts and authenticates, as its cluster or
// replication group describes it.
func (c *config) encryption() *encryptionView {
	e := &encryptionView{AuthTokenEnabled: aws.Bool(c.authToken != ""), TransitEncryptionEnabled: aws.Bool(c.transit),
		AtRestEncryptionEnabled: aws.Bool(c.atRest)}
	if c.authToken != "" {
		e.AuthTokenLastModifiedDate = aws.Time(c.authModified)
	}
	if c.transit {
		e.TransitEncryptionMode = types.TransitEncryptionModeRequired
	}
	return e
}
