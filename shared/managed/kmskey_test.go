package managed

import "testing"

// TestSameKMSKey checks that a key named by id matches the ARN AWS reports for it, and that
// another key or a partial id does not.
func TestSameKMSKey(t *testing.T) {
	arn := "arn:aws:kms:us-east-1:111122223333:key/key-1"
	cases := map[string]struct {
		want string
		same bool
	}{
		"ByID":      {want: "key-1", same: true},
		"ByARN":     {want: arn, same: true},
		"OtherKey":  {want: "key-2"},
		"PartialID": {want: "ey-1"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := SameKMSKey(tc.want, arn); got != tc.same {
				t.Errorf("SameKMSKey(%q, %q) = %v, want %v", tc.want, arn, got, tc.same)
			}
		})
	}
}
