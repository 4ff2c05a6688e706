package charts

import (
	"io/fs"
	"strings"
	"testing"
)

// TestLoad checks that every embedded chart loads with its helpers and, for the umbrella, its
// eight families, and that an unknown name is refused.
func TestLoad(t *testing.T) {
	for _, name := range append(Families(), Umbrella) {
		c, err := Load(name)
		if err != nil {
			t.Fatalf("Load(%q): %v", name, err)
		}
		if c.Name() != name {
			t.Errorf("Load(%q) is the chart %q", name, c.Name())
		}
		if _, err := fs.Stat(FS(), name+"/values.schema.json"); err != nil {
			t.Errorf("%s has no values.schema.json: %v", name, err)
		}
	}
	for _, family := range Families() {
		if _, err := fs.Stat(FS(), family+"/templates/_helpers.tpl"); err != nil {
			t.Errorf("the embedded %s chart lacks _helpers.tpl: %v", family, err)
		}
	}
	umbrella, err := Load(Umbrella)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(umbrella.Dependencies()), len(Families()); got != want {
		t.Errorf("the umbrella has %d subcharts, want %d", got, want)
	}
	if _, err := Load("storage"); err == nil || !strings.Contains(err.Error(), "no such chart") {
		t.Errorf("Load(storage): %v, want no such chart", err)
	}
}
