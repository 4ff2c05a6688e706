package managed

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// kv is a service's tag element, for TagList and TagMap.
type kv struct{ K, V string }

func TestTagListAndMap(t *testing.T) {
	tags := map[string]string{"b": "2", "a": "1", "c": ""}
	list := TagList(tags, func(k, v string) kv { return kv{k, v} })
	if diff := cmp.Diff([]kv{{"a", "1"}, {"b", "2"}, {"c", ""}}, list); diff != "" {
		t.Errorf("TagList sorts by key (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tags, TagMap(list, func(e kv) (string, string) { return e.K, e.V })); diff != "" {
		t.Errorf("TagMap inverts TagList (-want +got):\n%s", diff)
	}
	owned := map[string]string{"team": "data", v1alpha1.TagOwnerUID: "u", v1alpha1.TagOwnerName: "n", v1alpha1.TagOwnerNamespace: "ns", v1alpha1.TagOwnerKind: "K"}
	if diff := cmp.Diff(map[string]string{"team": "data"}, WithoutOwnershipTags(owned)); diff != "" {
		t.Errorf("WithoutOwnershipTags (-want +got):\n%s", diff)
	}
}

func TestClaim(t *testing.T) {
	cases := map[string]struct {
		reason  string
		pending bool
		tags    map[string]string
		want    bool
	}{
		"Owned": {
			reason: "A resource tagged with the object's UID is the object's.",
			tags:   map[string]string{v1alpha1.TagOwnerUID: "uid-1"},
			want:   true,
		},
		"UntaggedAfterCreateCall": {
			reason:  "An untagged resource found after an unconfirmed create call is the object's.",
			pending: true,
			want:    true,
		},
		"UntaggedWithoutCreateCall": {
			reason: "An untagged resource the object never tried to create is not its own.",
		},
		"OtherOwnerAfterCreateCall": {
			reason:  "A resource tagged for another object was not created by this one, even after a create call.",
			pending: true,
			tags:    map[string]string{v1alpha1.TagOwnerUID: "uid-2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{UID: "uid-1", Namespace: "ns", Name: "w"}}
			if tc.pending {
				w.Annotations = map[string]string{v1alpha1.AnnotationCreatePending: "2024-01-01T00:00:00Z"}
			}
			err := Claim(w, "widget", "id-1", tc.tags)
			if got := err == nil && ExternalName(w) == "id-1"; got != tc.want {
				t.Errorf("%s\nClaim: claimed %v (err %v), want %v", tc.reason, got, err, tc.want)
			}
		})
	}
}
