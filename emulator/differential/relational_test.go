package differential

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// relational is one side's RDS client and the ARN of the instance the steps created.
type relational struct {
	rds *rds.Client
	arn *string
}

// tags returns n tags key<first>=value<first> and on.
func tags(first, n int) []types.Tag {
	out := make([]types.Tag, n)
	for i := range out {
		out[i] = types.Tag{Key: aws.String(fmt.Sprintf("key%d", first+i)), Value: aws.String(fmt.Sprintf("value%d", first+i))}
	}
	return out
}

// postgres returns a CreateDBInstance request for a small PostgreSQL instance with tags.
func postgres(id string, tags []types.Tag) *rds.CreateDBInstanceInput {
	return &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String(id), DBInstanceClass: aws.String("db.t3.micro"),
		Engine: aws.String("postgres"), AllocatedStorage: aws.Int32(20), MasterUsername: aws.String("app"),
		MasterUserPassword: aws.String("correct-horse-1"), Tags: tags}
}

// relationalSteps is the RDS tag sequence both sides run: AWS keeps a resource to 50 tags.
func relationalSteps() []step[*relational] {
	ctx := context.Background()
	count := func(c *relational) outcome {
		out, err := c.rds.ListTagsForResource(ctx, &rds.ListTagsForResourceInput{ResourceName: c.arn})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"tags": strconv.Itoa(len(out.TagList))})
	}
	addTags := func(t []types.Tag) func(c *relational) outcome {
		return func(c *relational) outcome {
			_, err := c.rds.AddTagsToResource(ctx, &rds.AddTagsToResourceInput{ResourceName: c.arn, Tags: t})
			return observe(err, nil)
		}
	}
	return []step[*relational]{
		{"CreateWithFiftyTags", func(c *relational) outcome {
			out, err := c.rds.CreateDBInstance(ctx, postgres("diff-orders", tags(0, 50)))
			if err != nil {
				return observe(err, nil)
			}
			c.arn = out.DBInstance.DBInstanceArn
			return observe(nil, map[string]string{"tags": strconv.Itoa(len(out.DBInstance.TagList))})
		}},
		{"ReplaceFiftyValues", addTags(tags(0, 50))},
		{"AddFiftyFirstTag", addTags(tags(50, 1))},
		{"ListAfterFiftyFirst", count},
		{"RemoveTag", func(c *relational) outcome {
			_, err := c.rds.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: c.arn, TagKeys: []string{"key0", "key50"}})
			return observe(err, nil)
		}},
		{"AddTagBackToFifty", addTags(tags(0, 1))},
		{"ListAtFifty", count},
		{"CreateWithFiftyOneTags", func(c *relational) outcome {
			_, err := c.rds.CreateDBInstance(ctx, postgres("diff-overtagged", tags(0, 51)))
			return observe(err, nil)
		}},
		{"DeleteInstance", func(c *relational) outcome {
			_, err := c.rds.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("diff-orders"), SkipFinalSnapshot: aws.Bool(true)})
			return observe(err, nil)
		}},
	}
}

// TestRelationalAgainstMoto compares RDS tagging with moto's RDS.
func TestRelationalAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *relational { return &relational{rds: rds.NewFromConfig(sdkConfig(t, url))} }
	// moto keeps no tag limit for RDS. AWS allows 50 tags a resource (Amazon RDS User Guide,
	// Tagging Amazon RDS resources; Tag Editor quotas) and RDS, which models no tag quota error
	// of its own, refuses more with its common InvalidParameterValue; the emulator follows AWS.
	const noLimit = "moto has no RDS tag limit; AWS allows 50 tags a resource and answers more with InvalidParameterValue"
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, relationalSteps(), map[string]string{
		"AddFiftyFirstTag":       noLimit,
		"ListAfterFiftyFirst":    noLimit + ", so moto lists 51",
		"CreateWithFiftyOneTags": noLimit,
	})
}
