package web

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/latencylab/latencylab/labs"
)

// Slugs and knob names end up in DOM ids, URLs and Datastar expressions, so
// they are checked once at start rather than escaped everywhere.
var (
	slugRe     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
	knobNameRe = regexp.MustCompile(`^[a-z][A-Za-z0-9]{0,63}$`)
)

// labIDs are the names one lab instance uses on a page: its DOM id prefix
// and its Datastar signals. They derive from the slug alone, so the run
// handler finds the same names the page rendered.
type labIDs struct {
	Prefix string // DOM ids: Prefix+"-status", Prefix+"-stats", …
	NS     string // signal object holding the knob values
	Guess  string // signal holding the prediction
	Guess2 string // signal holding the second prediction, where a lab asks for two
	Busy   string // true while a run streams
	Note   string // local signal (never sent) with the last preset's note
	Skip   string // local signal: run without a guess this time
	Width  string // the width (px) of the lab's output column, sent with a run
	Token  string // names one run of the page, so its Stop reaches that run
}

func idsFor(slug string) labIDs {
	var b strings.Builder
	b.WriteString("lab")
	for _, part := range strings.Split(slug, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	ns := b.String()
	return labIDs{Prefix: "lab-" + slug, NS: ns, Guess: ns + "Guess", Guess2: ns + "Guess2", Busy: ns + "Busy", Note: "_" + ns + "Note", Skip: "_" + ns + "Skip", Width: ns + "Width", Token: ns + "Token"}
}

// checkCatalog rejects labs whose slug or knob names could not be used
// safely in ids and expressions. (Defaults and presets are checked when a
// lab is defined.)
func checkCatalog(c *labs.Catalog) error {
	for _, l := range c.All() {
		info := l.Info()
		if !slugRe.MatchString(info.Slug) {
			return fmt.Errorf("lab slug %q: want lower-case letters, digits and dashes", info.Slug)
		}
		for _, k := range l.Knobs() {
			if !knobNameRe.MatchString(k.Name) {
				return fmt.Errorf("lab %s: knob name %q: want a camelCase identifier", info.Slug, k.Name)
			}
		}
	}
	return nil
}
