package s3bucket

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
)

func TestSameReplication(t *testing.T) {
	const role = "arn:aws:iam::123456789012:role/replication"
	spec := &v1alpha1.S3BucketSpec{Replication: &v1alpha1.S3Replication{RoleARN: role, Rules: []v1alpha1.S3ReplicationRule{
		{ID: "all", Destination: v1alpha1.S3ReplicationDestination{BucketName: "replica"}, DeleteMarkerReplication: true},
		{ID: "tagged", Priority: 1, Status: "Disabled", Filter: &v1alpha1.S3ReplicationFilter{Tags: map[string]string{"class": "finance"}},
			Destination: v1alpha1.S3ReplicationDestination{BucketName: "archive", StorageClass: "GLACIER"}},
		{ID: "both", Priority: 2, Filter: &v1alpha1.S3ReplicationFilter{Prefix: "reports/", Tags: map[string]string{"b": "2", "a": "1"}},
			Destination: v1alpha1.S3ReplicationDestination{BucketName: "archive"}},
	}}}
	want := desiredReplication(spec, "aws")
	put := replicationConfiguration(want)
	// S3's answer: the rules in another order.
	observed := &types.ReplicationConfiguration{Role: put.Role, Rules: []types.ReplicationRule{put.Rules[2], put.Rules[0], put.Rules[1]}}
	legacy := &types.ReplicationConfiguration{Role: put.Role, Rules: []types.ReplicationRule{{ID: aws.String("all"), Prefix: aws.String(""),
		Status: types.ReplicationRuleStatusEnabled, Destination: &types.Destination{Bucket: aws.String("arn:aws:s3:::replica")}}}}
	withTime := &types.ReplicationConfiguration{Role: put.Role, Rules: append([]types.ReplicationRule(nil), put.Rules...)}
	d := *withTime.Rules[0].Destination
	d.ReplicationTime = &types.ReplicationTime{Status: types.ReplicationTimeStatusEnabled}
	withTime.Rules[0].Destination = &d
	otherRole := &types.ReplicationConfiguration{Role: aws.String(role + "2"), Rules: put.Rules}

	cases := map[string]struct {
		reason   string
		want     *replication
		observed *types.ReplicationConfiguration
		same     bool
	}{
		"RoundTrip":    {reason: "The configuration put, read back with its rules in another order, is the spec's.", want: want, observed: observed, same: true},
		"NoneNone":     {reason: "No configuration matches a spec without replication.", same: true},
		"Removed":      {reason: "A configuration the spec does not have differs.", observed: observed},
		"Missing":      {reason: "A spec's configuration that S3 lacks differs.", want: want},
		"OtherRole":    {reason: "Another role differs.", want: want, observed: otherRole},
		"Legacy":       {reason: "A rule of the old schema (a prefix, no filter) is not the spec's.", want: desiredReplication(&v1alpha1.S3BucketSpec{Replication: &v1alpha1.S3Replication{RoleARN: role, Rules: spec.Replication.Rules[:1]}}, "aws"), observed: legacy},
		"ExtraSetting": {reason: "A setting the spec cannot express (replication time control) differs.", want: want, observed: withTime},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, complete := observedReplication(tc.observed)
			if same := complete && sameReplication(tc.want, got); same != tc.same {
				t.Errorf("%s\nsame = %v, want %v", tc.reason, same, tc.same)
			}
		})
	}
	if f := put.Rules[1].Filter; f.Tag == nil || f.And != nil || f.Prefix != nil {
		t.Errorf("a rule with one tag and no prefix has the filter %+v, want the tag alone", f)
	}
	if f := put.Rules[2].Filter; f.And == nil || aws.ToString(f.And.Prefix) != "reports/" || aws.ToString(f.And.Tags[0].Key) != "a" {
		t.Errorf("a rule with a prefix and tags has the filter %+v, want both under And, tags sorted", f)
	}
}
