package web

import (
	"bytes"
	"io/fs"
	"slices"
	"testing"

	"github.com/latencylab/latencylab/static"
)

// TestStylesheetBundlesEveryFile: app.css carries every file of static/css
// in the listed order, then the charts' styles, so a new file that is not
// listed (and so never served) fails here.
func TestStylesheetBundlesEveryFile(t *testing.T) {
	a, err := loadAssets()
	if err != nil {
		t.Fatal(err)
	}
	bundle := a.byLogical["app.css"].body
	onDisk, err := fs.Glob(static.Files, "css/*.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range onDisk {
		if !slices.Contains(static.Stylesheets, name) {
			t.Errorf("%s is embedded but not listed in static.Stylesheets", name)
		}
	}
	at := 0
	for _, name := range append(slices.Clone(static.Stylesheets), "charts") {
		body := chartsCSS
		if name != "charts" {
			if body, err = static.Files.ReadFile(name); err != nil {
				t.Fatal(err)
			}
		}
		i := bytes.Index(bundle[at:], body)
		if i < 0 {
			t.Fatalf("app.css lacks %s after byte %d", name, at)
		}
		at += i + len(body)
	}
}
