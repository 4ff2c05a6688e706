package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestS3ReadsOfUnconfiguredBucket checks that every bucket read that tools (Terraform's
// aws_s3_bucket, a peer controller) call on each bucket answers as AWS does for a new bucket
// with nothing configured, and NoSuchBucket for a bucket that does not exist.
func TestS3ReadsOfUnconfiguredBucket(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("reads-unconfigured")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	acl, err := c.GetBucketAcl(ctx, &s3.GetBucketAclInput{Bucket: bucket})
	if err != nil {
		t.Fatal(err)
	}
	owner := aws.ToString(acl.Owner.ID)
	if len(owner) != 64 || len(acl.Grants) != 1 || aws.ToString(acl.Grants[0].Grantee.ID) != owner || acl.Grants[0].Permission != types.PermissionFullControl {
		t.Errorf("GetBucketAcl = owner %q, grants %+v; want the owner's FULL_CONTROL alone", owner, acl.Grants)
	}
	list, err := c.ListBuckets(ctx, &s3.ListBucketsInput{})
	if err != nil || aws.ToString(list.Owner.ID) != owner {
		t.Errorf("ListBuckets owner = %v, %v; want the ACL's owner %s", list, err, owner)
	}
	accel, err := c.GetBucketAccelerateConfiguration(ctx, &s3.GetBucketAccelerateConfigurationInput{Bucket: bucket})
	if err != nil || accel.Status != "" {
		t.Errorf("GetBucketAccelerateConfiguration = %v, %v; want no status", accel, err)
	}
	logging, err := c.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: bucket})
	if err != nil || logging.LoggingEnabled != nil {
		t.Errorf("GetBucketLogging = %v, %v; want an empty status", logging, err)
	}
	notif, err := c.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: bucket})
	if err != nil || len(notif.QueueConfigurations)+len(notif.TopicConfigurations)+len(notif.LambdaFunctionConfigurations) != 0 {
		t.Errorf("GetBucketNotificationConfiguration = %v, %v; want empty", notif, err)
	}
	abac, err := c.GetBucketAbac(ctx, &s3.GetBucketAbacInput{Bucket: bucket})
	if err != nil || abac.AbacStatus == nil || abac.AbacStatus.Status != types.BucketAbacStatusDisabled {
		t.Errorf("GetBucketAbac = %+v, %v; want Disabled", abac, err)
	}
	if _, err := c.PutBucketAbac(ctx, &s3.PutBucketAbacInput{Bucket: bucket, AbacStatus: &types.AbacStatus{Status: types.BucketAbacStatusEnabled}}); err != nil {
		t.Fatalf("PutBucketAbac: %v", err)
	}
	if abac, err := c.GetBucketAbac(ctx, &s3.GetBucketAbacInput{Bucket: bucket}); err != nil || abac.AbacStatus.Status != types.BucketAbacStatusEnabled {
		t.Errorf("GetBucketAbac after enabling = %+v, %v; want Enabled", abac, err)
	}
	payment, err := c.GetBucketRequestPayment(ctx, &s3.GetBucketRequestPaymentInput{Bucket: bucket})
	if err != nil || payment.Payer != types.PayerBucketOwner {
		t.Errorf("GetBucketRequestPayment = %v, %v; want BucketOwner", payment, err)
	}
	if l, err := c.ListBucketAnalyticsConfigurations(ctx, &s3.ListBucketAnalyticsConfigurationsInput{Bucket: bucket}); err != nil || len(l.AnalyticsConfigurationList) != 0 || aws.ToBool(l.IsTruncated) {
		t.Errorf("ListBucketAnalyticsConfigurations = %v, %v", l, err)
	}
	if l, err := c.ListBucketIntelligentTieringConfigurations(ctx, &s3.ListBucketIntelligentTieringConfigurationsInput{Bucket: bucket}); err != nil || len(l.IntelligentTieringConfigurationList) != 0 {
		t.Errorf("ListBucketIntelligentTieringConfigurations = %v, %v", l, err)
	}
	if l, err := c.ListBucketInventoryConfigurations(ctx, &s3.ListBucketInventoryConfigurationsInput{Bucket: bucket}); err != nil || len(l.InventoryConfigurationList) != 0 {
		t.Errorf("ListBucketInventoryConfigurations = %v, %v", l, err)
	}
	if l, err := c.ListBucketMetricsConfigurations(ctx, &s3.ListBucketMetricsConfigurationsInput{Bucket: bucket}); err != nil || len(l.MetricsConfigurationList) != 0 {
		t.Errorf("ListBucketMetricsConfigurations = %v, %v", l, err)
	}
	if l, err := c.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: bucket}); err != nil || len(l.Uploads) != 0 || aws.ToString(l.Bucket) != *bucket {
		t.Errorf("ListMultipartUploads = %v, %v", l, err)
	}
	// Reads of what a new bucket does not have answer AWS's 404 codes.
	absent := map[string]error{}
	_, absent["NoSuchWebsiteConfiguration"] = c.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: bucket})
	_, absent["ReplicationConfigurationNotFoundError"] = c.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: bucket})
	_, absent["ObjectLockConfigurationNotFoundError"] = c.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: bucket})
	_, absent["NoSuchBucketPolicy"] = c.GetBucketPolicyStatus(ctx, &s3.GetBucketPolicyStatusInput{Bucket: bucket})
	for code, err := range absent {
		if got := errorCode(err); got != code || statusCode(err) != 404 {
			t.Errorf("got %s (HTTP %d), want %s (404)", got, statusCode(err), code)
		}
	}
	// Every bucket read answers NoSuchBucket for a bucket that does not exist.
	gone := aws.String("reads-no-such-bucket")
	reads := map[string]func() error{
		"GetBucketAcl":     func() error { _, err := c.GetBucketAcl(ctx, &s3.GetBucketAclInput{Bucket: gone}); return err },
		"GetBucketAbac":    func() error { _, err := c.GetBucketAbac(ctx, &s3.GetBucketAbacInput{Bucket: gone}); return err },
		"GetBucketLogging": func() error { _, err := c.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: gone}); return err },
		"GetBucketWebsite": func() error { _, err := c.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: gone}); return err },
		"GetBucketReplication": func() error {
			_, err := c.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: gone})
			return err
		},
		"GetBucketRequestPayment": func() error {
			_, err := c.GetBucketRequestPayment(ctx, &s3.GetBucketRequestPaymentInput{Bucket: gone})
			return err
		},
		"GetBucketAccelerateConfiguration": func() error {
			_, err := c.GetBucketAccelerateConfiguration(ctx, &s3.GetBucketAccelerateConfigurationInput{Bucket: gone})
			return err
		},
		"GetBucketNotificationConfiguration": func() error {
			_, err := c.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: gone})
			return err
		},
		"GetObjectLockConfiguration": func() error {
			_, err := c.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: gone})
			return err
		},
		"GetBucketPolicyStatus": func() error {
			_, err := c.GetBucketPolicyStatus(ctx, &s3.GetBucketPolicyStatusInput{Bucket: gone})
			return err
		},
		"ListBucketMetricsConfigurations": func() error {
			_, err := c.ListBucketMetricsConfigurations(ctx, &s3.ListBucketMetricsConfigurationsInput{Bucket: gone})
			return err
		},
		"ListMultipartUploads": func() error {
			_, err := c.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: gone})
			return err
		},
		"ListObjects": func() error { _, err := c.ListObjects(ctx, &s3.ListObjectsInput{Bucket: gone}); return err },
		"GetObjectTagging": func() error {
			_, err := c.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: gone, Key: aws.String("k")})
			return err
		},
		"GetObjectAcl": func() error {
			_, err := c.GetObjectAcl(ctx, &s3.GetObjectAclInput{Bucket: gone, Key: aws.String("k")})
			return err
		},
	}
	for name, read := range reads {
		if got := errorCode(read()); got != "NoSuchBucket" {
			t.Errorf("%s on a missing bucket: got %q, want NoSuchBucket", name, got)
		}
	}
}

// TestS3BucketAcl checks PutBucketAcl against object ownership and the public access block.
func TestS3BucketAcl(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("acl-bucket")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	_, err := c.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, ACL: types.BucketCannedACLPublicRead})
	if got := errorCode(err); got != "AccessControlListNotSupported" {
		t.Errorf("public-read under BucketOwnerEnforced: got %q, want AccessControlListNotSupported", got)
	}
	if _, err := c.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, ACL: types.BucketCannedACLPrivate}); err != nil {
		t.Errorf("private under BucketOwnerEnforced: %v", err)
	}
	if _, err := c.PutBucketOwnershipControls(ctx, &s3.PutBucketOwnershipControlsInput{Bucket: bucket, OwnershipControls: &types.OwnershipControls{
		Rules: []types.OwnershipControlsRule{{ObjectOwnership: types.ObjectOwnershipBucketOwnerPreferred}}}}); err != nil {
		t.Fatal(err)
	}
	_, err = c.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, ACL: types.BucketCannedACLPublicRead})
	if got := errorCode(err); got != "AccessDenied" {
		t.Errorf("public-read with BlockPublicAcls: got %q, want AccessDenied", got)
	}
	if _, err := c.DeletePublicAccessBlock(ctx, &s3.DeletePublicAccessBlockInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, ACL: types.BucketCannedACLPublicRead}); err != nil {
		t.Fatal(err)
	}
	acl, err := c.GetBucketAcl(ctx, &s3.GetBucketAclInput{Bucket: bucket})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range acl.Grants {
		got = append(got, string(g.Grantee.Type)+" "+aws.ToString(g.Grantee.ID)+aws.ToString(g.Grantee.URI)+" "+string(g.Permission))
	}
	want := []string{"CanonicalUser " + aws.ToString(acl.Owner.ID) + " FULL_CONTROL", "Group http://acs.amazonaws.com/groups/global/AllUsers READ"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetBucketAcl after public-read (-want +got):\n%s", diff)
	}
	if _, err := c.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, GrantRead: aws.String(`uri="http://acs.amazonaws.com/groups/s3/LogDelivery"`),
		GrantFullControl: aws.String(`id="` + aws.ToString(acl.Owner.ID) + `"`)}); err != nil {
		t.Errorf("PutBucketAcl with grant headers: %v", err)
	}
	if _, err := c.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, AccessControlPolicy: &types.AccessControlPolicy{Owner: acl.Owner,
		Grants: []types.Grant{{Grantee: &types.Grantee{Type: types.TypeCanonicalUser, ID: acl.Owner.ID}, Permission: types.PermissionFullControl}}}}); err != nil {
		t.Errorf("PutBucketAcl with an AccessControlPolicy: %v", err)
	}
	acl, err = c.GetBucketAcl(ctx, &s3.GetBucketAclInput{Bucket: bucket})
	if err != nil || len(acl.Grants) != 1 {
		t.Errorf("GetBucketAcl after the document = %+v, %v; want its one grant", acl, err)
	}
	_, err = c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("acl-public-enforced"), ACL: types.BucketCannedACLPublicRead})
	if got := errorCode(err); got != "InvalidBucketAclWithObjectOwnership" {
		t.Errorf("CreateBucket public-read under BucketOwnerEnforced: got %q, want InvalidBucketAclWithObjectOwnership", got)
	}
}

// TestS3BucketConfigurationsRoundTrip sets and reads back the configurations tools manage on
// buckets, with AWS's validation of each.
func TestS3BucketConfigurationsRoundTrip(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket, logs, dest := aws.String("configs-bucket"), aws.String("configs-logs"), aws.String("configs-replica")
	for _, b := range []*string{bucket, logs, dest} {
		if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: b}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.PutBucketAccelerateConfiguration(ctx, &s3.PutBucketAccelerateConfigurationInput{Bucket: bucket,
		AccelerateConfiguration: &types.AccelerateConfiguration{Status: types.BucketAccelerateStatusEnabled}}); err != nil {
		t.Fatal(err)
	}
	if a, err := c.GetBucketAccelerateConfiguration(ctx, &s3.GetBucketAccelerateConfigurationInput{Bucket: bucket}); err != nil || a.Status != types.BucketAccelerateStatusEnabled {
		t.Errorf("GetBucketAccelerateConfiguration = %v, %v; want Enabled", a, err)
	}
	_, err := c.PutBucketLogging(ctx, &s3.PutBucketLoggingInput{Bucket: bucket, BucketLoggingStatus: &types.BucketLoggingStatus{
		LoggingEnabled: &types.LoggingEnabled{TargetBucket: aws.String("configs-missing"), TargetPrefix: aws.String("logs/")}}})
	if got := errorCode(err); got != "InvalidTargetBucketForLogging" {
		t.Errorf("PutBucketLogging to a missing bucket: got %q, want InvalidTargetBucketForLogging", got)
	}
	_, err = c.PutBucketLogging(ctx, &s3.PutBucketLoggingInput{Bucket: bucket, BucketLoggingStatus: &types.BucketLoggingStatus{
		LoggingEnabled: &types.LoggingEnabled{TargetBucket: logs, TargetPrefix: aws.String("logs/")}}})
	if got := errorCode(err); got != "InvalidTargetBucketForLogging" {
		t.Errorf("PutBucketLogging to a bucket that does not let the logging service write: got %q, want InvalidTargetBucketForLogging", got)
	}
	if _, err := c.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: logs, Policy: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow",` +
		`"Principal":{"Service":"logging.s3.amazonaws.com"},"Action":"s3:PutObject","Resource":"arn:aws:s3:::configs-logs/logs/*",` +
		`"Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:s3:::configs-bucket"}}}]}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutBucketLogging(ctx, &s3.PutBucketLoggingInput{Bucket: bucket, BucketLoggingStatus: &types.BucketLoggingStatus{
		LoggingEnabled: &types.LoggingEnabled{TargetBucket: logs, TargetPrefix: aws.String("logs/")}}}); err != nil {
		t.Fatal(err)
	}
	if l, err := c.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: bucket}); err != nil || l.LoggingEnabled == nil || aws.ToString(l.LoggingEnabled.TargetPrefix) != "logs/" {
		t.Errorf("GetBucketLogging = %+v, %v; want logs/ in the target", l, err)
	}
	queue := "arn:aws:sqs:us-east-1:000000000000:events"
	// The queue does not exist: the round trip skips destination validation, as the API allows
	// (s3_notifications_test.go checks destinations).
	if _, err := c.PutBucketNotificationConfiguration(ctx, &s3.PutBucketNotificationConfigurationInput{Bucket: bucket, SkipDestinationValidation: aws.Bool(true),
		NotificationConfiguration: &types.NotificationConfiguration{QueueConfigurations: []types.QueueConfiguration{{
			QueueArn: aws.String(queue), Events: []types.Event{"s3:ObjectCreated:*"}}}}}); err != nil {
		t.Fatal(err)
	}
	n, err := c.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: bucket})
	if err != nil || len(n.QueueConfigurations) != 1 || aws.ToString(n.QueueConfigurations[0].QueueArn) != queue || aws.ToString(n.QueueConfigurations[0].Id) == "" {
		t.Errorf("GetBucketNotificationConfiguration = %+v, %v; want the queue with an Id", n, err)
	}
	if _, err := c.PutBucketRequestPayment(ctx, &s3.PutBucketRequestPaymentInput{Bucket: bucket,
		RequestPaymentConfiguration: &types.RequestPaymentConfiguration{Payer: types.PayerRequester}}); err != nil {
		t.Fatal(err)
	}
	if p, err := c.GetBucketRequestPayment(ctx, &s3.GetBucketRequestPaymentInput{Bucket: bucket}); err != nil || p.Payer != types.PayerRequester {
		t.Errorf("GetBucketRequestPayment = %v, %v; want Requester", p, err)
	}
	_, err = c.PutBucketWebsite(ctx, &s3.PutBucketWebsiteInput{Bucket: bucket, WebsiteConfiguration: &types.WebsiteConfiguration{
		ErrorDocument: &types.ErrorDocument{Key: aws.String("error.html")}}})
	if got := errorCode(err); got != "InvalidArgument" {
		t.Errorf("PutBucketWebsite without an index document: got %q, want InvalidArgument", got)
	}
	if _, err := c.PutBucketWebsite(ctx, &s3.PutBucketWebsiteInput{Bucket: bucket, WebsiteConfiguration: &types.WebsiteConfiguration{
		IndexDocument: &types.IndexDocument{Suffix: aws.String("index.html")}}}); err != nil {
		t.Fatal(err)
	}
	if w, err := c.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: bucket}); err != nil || aws.ToString(w.IndexDocument.Suffix) != "index.html" {
		t.Errorf("GetBucketWebsite = %v, %v; want index.html", w, err)
	}
	if _, err := c.DeleteBucketWebsite(ctx, &s3.DeleteBucketWebsiteInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: bucket}); errorCode(err) != "NoSuchWebsiteConfiguration" {
		t.Errorf("GetBucketWebsite after delete: %v", err)
	}
	replication := &types.ReplicationConfiguration{Role: aws.String("arn:aws:iam::000000000000:role/replication"),
		Rules: []types.ReplicationRule{{Status: types.ReplicationRuleStatusEnabled, Priority: aws.Int32(1),
			Filter:                  &types.ReplicationRuleFilter{Prefix: aws.String("")},
			DeleteMarkerReplication: &types.DeleteMarkerReplication{Status: types.DeleteMarkerReplicationStatusDisabled},
			Destination:             &types.Destination{Bucket: aws.String("arn:aws:s3:::configs-replica")}}}}
	_, err = c.PutBucketReplication(ctx, &s3.PutBucketReplicationInput{Bucket: bucket, ReplicationConfiguration: replication})
	if got := errorCode(err); got != "InvalidRequest" {
		t.Errorf("PutBucketReplication on an unversioned bucket: got %q, want InvalidRequest", got)
	}
	for _, b := range []*string{bucket, dest} {
		if _, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: b,
			VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.PutBucketReplication(ctx, &s3.PutBucketReplicationInput{Bucket: bucket, ReplicationConfiguration: replication}); err != nil {
		t.Fatal(err)
	}
	if r, err := c.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: bucket}); err != nil || aws.ToString(r.ReplicationConfiguration.Role) != aws.ToString(replication.Role) {
		t.Errorf("GetBucketReplication = %+v, %v", r, err)
	}
	if _, err := c.DeleteBucketReplication(ctx, &s3.DeleteBucketReplicationInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: bucket}); errorCode(err) != "ReplicationConfigurationNotFoundError" {
		t.Errorf("GetBucketReplication after delete: %v", err)
	}
	if _, err := c.DeletePublicAccessBlock(ctx, &s3.DeletePublicAccessBlockInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	for policy, public := range map[string]bool{
		`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::configs-bucket/*"}]}`:                                      true,
		`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::000000000000:root"},"Action":"s3:GetObject","Resource":"arn:aws:s3:::configs-bucket/*"}]}`: false,
	} {
		if _, err := c.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: bucket, Policy: aws.String(policy)}); err != nil {
			t.Fatal(err)
		}
		st, err := c.GetBucketPolicyStatus(ctx, &s3.GetBucketPolicyStatusInput{Bucket: bucket})
		if err != nil || aws.ToBool(st.PolicyStatus.IsPublic) != public {
			t.Errorf("GetBucketPolicyStatus for %s = %+v, %v; want IsPublic %v", policy, st, err, public)
		}
	}
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("configs-locked"), ObjectLockEnabledForBucket: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	lock, err := c.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: aws.String("configs-locked")})
	if err != nil || lock.ObjectLockConfiguration.ObjectLockEnabled != types.ObjectLockEnabledEnabled {
		t.Errorf("GetObjectLockConfiguration = %+v, %v; want Enabled", lock, err)
	}
	if v, err := c.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: aws.String("configs-locked")}); err != nil || v.Status != types.BucketVersioningStatusEnabled {
		t.Errorf("GetBucketVersioning of an Object Lock bucket = %v, %v; want Enabled", v, err)
	}
	_, err = c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: aws.String("configs-locked"),
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusSuspended}})
	if got := errorCode(err); got != "InvalidBucketState" {
		t.Errorf("suspending versioning under Object Lock: got %q, want InvalidBucketState", got)
	}
	retention := &types.ObjectLockConfiguration{ObjectLockEnabled: types.ObjectLockEnabledEnabled, Rule: &types.ObjectLockRule{
		DefaultRetention: &types.DefaultRetention{Mode: types.ObjectLockRetentionModeGovernance, Days: aws.Int32(30)}}}
	_, err = c.PutObjectLockConfiguration(ctx, &s3.PutObjectLockConfigurationInput{Bucket: logs, ObjectLockConfiguration: retention})
	if got := errorCode(err); got != "InvalidBucketState" {
		t.Errorf("PutObjectLockConfiguration on an unversioned bucket: got %q, want InvalidBucketState", got)
	}
	if _, err := c.PutObjectLockConfiguration(ctx, &s3.PutObjectLockConfigurationInput{Bucket: aws.String("configs-locked"), ObjectLockConfiguration: retention}); err != nil {
		t.Fatal(err)
	}
	lock, err = c.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: aws.String("configs-locked")})
	if err != nil || lock.ObjectLockConfiguration.Rule == nil || aws.ToInt32(lock.ObjectLockConfiguration.Rule.DefaultRetention.Days) != 30 {
		t.Errorf("GetObjectLockConfiguration after a default retention = %+v, %v; want 30 days", lock, err)
	}
	bad := &types.ObjectLockConfiguration{ObjectLockEnabled: types.ObjectLockEnabledEnabled, Rule: &types.ObjectLockRule{
		DefaultRetention: &types.DefaultRetention{Mode: types.ObjectLockRetentionModeCompliance, Days: aws.Int32(1), Years: aws.Int32(1)}}}
	_, err = c.PutObjectLockConfiguration(ctx, &s3.PutObjectLockConfigurationInput{Bucket: aws.String("configs-locked"), ObjectLockConfiguration: bad})
	if got := errorCode(err); got != "MalformedXML" {
		t.Errorf("a retention in days and years: got %q, want MalformedXML", got)
	}
}

// TestS3ObjectReads checks object tags, ACLs and attributes, and ListObjects (v1) with a
// delimiter and pages.
func TestS3ObjectReads(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("object-reads")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a.txt", "b/1.txt", "b/2.txt", "c.txt"} {
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String(k), Body: strings.NewReader("hello"), Tagging: aws.String("team=data&tier=hot")}); err != nil {
			t.Fatal(err)
		}
	}
	tags, err := c.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("a.txt")})
	if err != nil || len(tags.TagSet) != 2 || aws.ToString(tags.TagSet[0].Key) != "team" {
		t.Errorf("GetObjectTagging after PutObject's x-amz-tagging = %+v, %v", tags, err)
	}
	if _, err := c.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{Bucket: bucket, Key: aws.String("a.txt"),
		Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String("owner"), Value: aws.String("me")}}}}); err != nil {
		t.Fatal(err)
	}
	tags, err = c.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("a.txt")})
	if err != nil || len(tags.TagSet) != 1 || aws.ToString(tags.TagSet[0].Value) != "me" {
		t.Errorf("GetObjectTagging after PutObjectTagging = %+v, %v", tags, err)
	}
	var many []types.Tag
	for i := range 11 {
		many = append(many, types.Tag{Key: aws.String(strings.Repeat("k", i+1)), Value: aws.String("v")})
	}
	_, err = c.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{Bucket: bucket, Key: aws.String("a.txt"), Tagging: &types.Tagging{TagSet: many}})
	if got := errorCode(err); got != "InvalidTag" {
		t.Errorf("11 object tags: got %q, want InvalidTag", got)
	}
	if _, err := c.DeleteObjectTagging(ctx, &s3.DeleteObjectTaggingInput{Bucket: bucket, Key: aws.String("a.txt")}); err != nil {
		t.Fatal(err)
	}
	tags, err = c.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("a.txt")})
	if err != nil || len(tags.TagSet) != 0 {
		t.Errorf("GetObjectTagging after DeleteObjectTagging = %+v, %v; want no tags", tags, err)
	}
	if _, err := c.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("missing")}); errorCode(err) != "NoSuchKey" {
		t.Errorf("GetObjectTagging of a missing key: %v, want NoSuchKey", err)
	}
	acl, err := c.GetObjectAcl(ctx, &s3.GetObjectAclInput{Bucket: bucket, Key: aws.String("a.txt")})
	if err != nil || len(acl.Grants) != 1 || acl.Grants[0].Permission != types.PermissionFullControl {
		t.Errorf("GetObjectAcl = %+v, %v; want the owner's FULL_CONTROL", acl, err)
	}
	attrs, err := c.GetObjectAttributes(ctx, &s3.GetObjectAttributesInput{Bucket: bucket, Key: aws.String("a.txt"),
		ObjectAttributes: []types.ObjectAttributes{types.ObjectAttributesEtag, types.ObjectAttributesObjectSize, types.ObjectAttributesStorageClass}})
	if err != nil || aws.ToString(attrs.ETag) != "5d41402abc4b2a76b9719d911017c592" || aws.ToInt64(attrs.ObjectSize) != 5 || attrs.StorageClass != types.StorageClassStandard {
		t.Errorf("GetObjectAttributes = %+v, %v", attrs, err)
	}
	page, err := c.ListObjects(ctx, &s3.ListObjectsInput{Bucket: bucket, Delimiter: aws.String("/"), MaxKeys: aws.Int32(2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Contents) != 1 || len(page.CommonPrefixes) != 1 || aws.ToString(page.CommonPrefixes[0].Prefix) != "b/" ||
		!aws.ToBool(page.IsTruncated) || aws.ToString(page.NextMarker) != "b/" {
		t.Errorf("ListObjects first page = %+v", page)
	}
	page, err = c.ListObjects(ctx, &s3.ListObjectsInput{Bucket: bucket, Delimiter: aws.String("/"), Marker: page.NextMarker})
	if err != nil || len(page.Contents) != 1 || aws.ToString(page.Contents[0].Key) != "c.txt" || aws.ToBool(page.IsTruncated) {
		t.Errorf("ListObjects second page = %+v, %v; want c.txt alone", page, err)
	}
	v2, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: bucket, Prefix: aws.String("b/")})
	if err != nil || aws.ToInt32(v2.KeyCount) != 2 {
		t.Errorf("ListObjectsV2 under b/ = %+v, %v; want 2 keys", v2, err)
	}
}
