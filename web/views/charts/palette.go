package charts

import (
	"hash/fnv"
	"regexp"
	"strings"
)

// paletteSize is the number of hues for names without a fixed colour.
const paletteSize = 10

// palette returns the hues for names without a fixed colour: mid-tone, so
// they read on light and dark backgrounds, and no grey (grey means
// "waiting" or "reference"). A function, not a variable, so no code can
// change the colours under another chart.
func palette() [paletteSize]string {
	// Each hue has a luminance between 0.13 and 0.30, which gives at least
	// 3:1 contrast (WCAG non-text) on white and on the dark theme's
	// surfaces; palette_test.go checks it. Light hues (yellow, pink, teal)
	// are darkened in OKLab lightness so they keep their hue.
	return [paletteSize]string{
		"#4e79a7", // blue
		"#d67500", // orange
		"#569e4c", // green
		"#e15759", // red
		"#599995", // teal
		"#ac8900", // yellow (dark gold: pure yellow vanishes on white)
		"#b07aa1", // purple
		"#cf727c", // pink
		"#9c755f", // brown
		"#8686d2", // lavender
	}
}

// hexColour is the only form of colour a chart takes from its data.
var hexColour = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// greyColour marks waiting time and reference lines.
const greyColour = "#898f95"

// fixedColour returns the colour that a well-known name always gets, so
// "prefill" is orange in every chart of every lab.
func fixedColour(name string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "queued", "queue", "waiting", "wait", "idle", "reading speed", "reading", "reader":
		return greyColour, true
	case "prefill":
		return "#d67500", true
	case "decode":
		return "#4e79a7", true
	case "budget", "deadline", "timeout", "slo", "error", "errors", "dropped", "timed out":
		return "#e15759", true
	case "network", "transfer":
		return "#599995", true
	case "retrieval", "rag", "context", "lookup":
		return "#569e4c", true
	case "moderation", "guardrails", "guardrail":
		return "#b07aa1", true
	case "gateway", "proxy":
		return "#9c755f", true
	case "tokenize", "prompt assembly", "assembly":
		return "#ac8900", true
	}
	return "", false
}

// colours assigns colours to the names in one chart. Fixed names keep their
// colour; other names start at a slot chosen by a hash of the name and move
// to the next free slot on a clash, so distinct names in one chart differ
// and a name keeps its colour across charts unless it clashes.
type colours struct {
	byName map[string]string
	taken  map[string]bool
}

// newColours prepares an assigner for the given names, in the order they
// appear; fixed names are reserved first so hashed names avoid them.
func newColours(names []string) *colours {
	return newColoursWith(names, nil)
}

// newColoursWith is newColours with some names' colours chosen by the
// chart's data (labs.Series.Colour); a choice that is not #rrggbb is ignored.
func newColoursWith(names []string, chosen map[string]string) *colours {
	c := &colours{byName: map[string]string{}, taken: map[string]bool{}}
	for n, col := range chosen {
		if hexColour.MatchString(col) {
			c.byName[n] = col
			c.taken[col] = true
		}
	}
	for _, n := range names {
		if _, chosen := c.byName[n]; chosen {
			continue
		}
		if col, ok := fixedColour(n); ok {
			c.byName[n] = col
			c.taken[col] = true
		}
	}
	for _, n := range names {
		c.of(n)
	}
	return c
}

// of returns the colour of name, assigning one on first use.
func (c *colours) of(name string) string {
	if col, ok := c.byName[name]; ok {
		return col
	}
	if col, ok := fixedColour(name); ok {
		c.byName[name] = col
		c.taken[col] = true
		return col
	}
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(name))))
	pal := palette()
	start := int(h.Sum32() % paletteSize)
	col := pal[start]
	for i := 0; i < paletteSize; i++ {
		if p := pal[(start+i)%paletteSize]; !c.taken[p] {
			col = p
			break
		}
	}
	c.byName[name] = col
	c.taken[col] = true
	return col
}
