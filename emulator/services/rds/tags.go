package rds

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are RDS's limits on tags: 50 a resource, keys of 1 to 128 characters and values of
// at most 256, and no key beginning with "aws:" or "rds:" (Amazon RDS API reference, Tag; Amazon
// RDS User Guide, Tagging Amazon RDS resources). The RDS API models no error of its own for
// breaking them, so the emulator answers with RDS's common InvalidParameterValue (Amazon RDS API
// reference, Common errors), the code RDS gives a tag with characters it does not allow.
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:", "rds:"},
	TooMany:  invalidValue("Cannot add more tags: a resource can have at most 50 tags."),
	Invalid:  core.InvalidTag("InvalidParameterValue", "%s"),
}

// requestTags returns the tags of a request as a map; a key given twice keeps its last value.
func requestTags(tags []types.Tag) map[string]string {
	out, _ := core.TagMap(tags, core.TagPair[types.Tag])
	return out
}

// tagList returns the tags of the resource an ARN names as the SDK lists them.
func (r *region) tagList(arn string) []types.Tag {
	return core.TagList(r.tags, arn, core.NewTag[types.Tag])
}

// nameFromARN returns the name in ref when ref is the ARN of a resource of kind (db, snapshot,
// subgrp, pg, og, cluster, cluster-pg, cluster-snapshot) in the region, and ref itself otherwise.
func (r *region) nameFromARN(ref, kind string) string {
	if name, ok := strings.CutPrefix(ref, r.scope.ARN("rds", kind+":")); ok {
		return name
	}
	return ref
}

// taggedARN returns the ARN under which the resource a request's ARN names keeps its tags (the
// name in it lowercased, as RDS stores names), with the not-found error of its kind. The caller
// holds the backend's mutex.
func (r *region) taggedARN(call *core.Call, arn string) (string, error) {
	fields := strings.SplitN(arn, ":", 7)
	if len(fields) != 7 || fields[0] != "arn" || fields[2] != "rds" {
		return "", invalidValue("The specified resource name does not match an RDS resource in this region: %s", arn)
	}
	kind := fields[5]
	name, inRegion := strings.CutPrefix(arn, r.scope.ARN("rds", kind+":"))
	name = strings.ToLower(name)
	switch kind {
	case "db":
		if i := r.instance(name, call.Now); inRegion && i != nil {
			return i.arn, nil
		}
		return "", instanceNotFound(fields[6])
	case "snapshot":
		if s, ok := r.snapshots[name]; inRegion && ok {
			return aws.ToString(s.view.DBSnapshotArn), nil
		}
		return "", snapshotNotFound(fields[6])
	case "subgrp":
		if g, ok := r.subnetGroups[name]; inRegion && ok {
			return g.arn, nil
		}
		return "", subnetGroupNotFound(fields[6])
	case "pg":
		if g, ok := r.paramGroup(name); inRegion && ok {
			return g.arn, nil
		}
		return "", paramGroupNotFound(fields[6])
	case "cluster":
		if c := r.cluster(name, call.Now); inRegion && c != nil {
			return c.arn, nil
		}
		return "", clusterNotFound(fields[6])
	case "cluster-pg":
		if g, ok := r.clusterParamGroup(name); inRegion && ok {
			return g.arn, nil
		}
		return "", clusterParamGroupNotFound(fields[6])
	case "cluster-snapshot":
		if s, ok := r.clusterSnapshots[name]; inRegion && ok {
			return aws.ToString(s.view.DBClusterSnapshotArn), nil
		}
		return "", clusterSnapshotNotFound(fields[6])
	case "og":
		if g, ok := r.optionGroup(name); inRegion && ok {
			return g.arn, nil
		}
		return "", optionGroupNotFound(fields[6])
	}
	return "", invalidValue("The specified resource name does not match an RDS resource in this region: %s", arn)
}

// tagOperations are RDS's tag operations, AddTagsToResource, RemoveTagsFromResource and
// ListTagsForResource, on the resource a request names by ResourceName.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceName", (*rds.Client).AddTagsToResource, (*rds.Client).RemoveTagsFromResource, (*rds.Client).ListTagsForResource)
}

// tagging serves the tag operations on the instances, snapshots and groups of the caller's
// region, by ARN. ListTagsForResource ignores Filters, which AWS documents as not supported.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Rules: tagRules, Pair: core.TagPair[types.Tag], Tag: core.NewTag[types.Tag],
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
			r := b.state.Of(call)
			id, err := r.taggedARN(call, aws.ToString(arn))
			return core.TagTarget{Tags: r.tags, ID: id}, err
		}}
}
