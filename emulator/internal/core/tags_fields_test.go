package core

import "testing"

// sdkTag has the form of most SDKs' types.Tag.
type sdkTag struct {
	Key   *string
	Value *string
	other int
}

func TestTagPairAndNewTag(t *testing.T) {
	tag := NewTag[sdkTag]("team", "infra")
	if *tag.Key != "team" || *tag.Value != "infra" || tag.other != 0 {
		t.Fatalf("NewTag = %+v", tag)
	}
	if k, v := TagPair(tag); k != "team" || v != "infra" {
		t.Fatalf("TagPair = %q, %q", k, v)
	}
	if k, v := TagPair(sdkTag{}); k != "" || v != "" {
		t.Fatalf("TagPair of an empty tag = %q, %q", k, v)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("TagPair of a type without Key and Value did not panic")
		}
	}()
	TagPair(struct{ Name *string }{})
}
