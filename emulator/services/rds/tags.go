package rds

import (
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

func tagMap(tags []types.Tag) map[string]string {
	out := map[string]string{}
	for _, t := range tags {
		out[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return out
}

func tagList(tags map[string]string) []types.Tag {
	return core.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// nameFromARN returns the name in ref when ref is the ARN of a resource of kind (db, snapshot,
// subgrp, pg, og) in the region, and ref itself otherwise.
func (r *region) nameFromARN(ref, kind string) string {
	if name, ok := strings.CutPrefix(ref, r.scope.ARN("rds", kind+":")); ok {
		return name
	}
	return ref
}

// tagsOf returns the tags of the resource an ARN names, with the not-found error of its kind.
// The caller holds b.mu.
func (b *Backend) tagsOf(call *core.Call, arn string) (map[string]string, error) {
	r := b.region(call)
	fields := strings.SplitN(arn, ":", 7)
	if len(fields) != 7 || fields[0] != "arn" || fields[2] != "rds" {
		return nil, invalidValue("The specified resource name does not match an RDS resource in this region: %s", arn)
	}
	kind := fields[5]
	name, inRegion := strings.CutPrefix(arn, r.scope.ARN("rds", kind+":"))
	name = strings.ToLower(name)
	switch kind {
	case "db":
		if i := r.instance(name, call.Now); inRegion && i != nil {
			return i.tags, nil
		}
		return nil, instanceNotFound(fields[6])
	case "snapshot":
		if s, ok := r.snapshots[name]; inRegion && ok {
			return s.tags, nil
		}
		return nil, snapshotNotFound(fields[6])
	case "subgrp":
		if g, ok := r.subnetGroups[name]; inRegion && ok {
			return g.tags, nil
		}
		return nil, subnetGroupNotFound(fields[6])
	case "pg":
		if g, ok := r.paramGroup(name); inRegion && ok {
			return g.tags, nil
		}
		return nil, paramGroupNotFound(fields[6])
	case "og":
		if g, ok := r.optionGroup(name); inRegion && ok {
			return g.tags, nil
		}
		return nil, optionGroupNotFound(fields[6])
	}
	return nil, invalidValue("The specified resource name does not match an RDS resource in this region: %s", arn)
}

// withTags runs f on the tags of the resource an ARN names, holding b.mu.
func (b *Backend) withTags(call *core.Call, arn *string, f func(tags map[string]string)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	tags, err := b.tagsOf(call, aws.ToString(arn))
	if err == nil {
		f(tags)
	}
	return err
}

func (b *Backend) addTagsToResource(call *core.Call, in *rds.AddTagsToResourceInput) (*rds.AddTagsToResourceOutput, error) {
	return &rds.AddTagsToResourceOutput{}, b.withTags(call, in.ResourceName, func(tags map[string]string) { maps.Copy(tags, tagMap(in.Tags)) })
}

func (b *Backend) removeTagsFromResource(call *core.Call, in *rds.RemoveTagsFromResourceInput) (*rds.RemoveTagsFromResourceOutput, error) {
	return &rds.RemoveTagsFromResourceOutput{}, b.withTags(call, in.ResourceName, func(tags map[string]string) {
		for _, k := range in.TagKeys {
			delete(tags, k)
		}
	})
}

// listTagsForResource ignores Filters, which AWS documents as not supported.
func (b *Backend) listTagsForResource(call *core.Call, in *rds.ListTagsForResourceInput) (*rds.ListTagsForResourceOutput, error) {
	out := &rds.ListTagsForResourceOutput{}
	return out, b.withTags(call, in.ResourceName, func(tags map[string]string) { out.TagList = tagList(tags) })
}
