package charts

import (
	"hash/fnv"
	"math"
	"regexp"
	"strings"
)

// paletteSize is the number of hues for names without a fixed colour;
// the first coreSize of them are far enough apart (minDistance) for every
// reader, colour-blind ones included.
const (
	paletteSize = 10
	coreSize    = 6
)

// palette returns the hues for names without a fixed colour: mid-tone, so
// they read on light and dark backgrounds, and no grey (grey means
// "waiting" or "reference"). A function, not a variable, so no code can
// change the colours under another chart.
func palette() [paletteSize]string {
	// Each hue has a luminance between 0.13 and 0.30, which gives at least
	// 3:1 contrast (WCAG non-text) on white and on the dark theme's
	// surfaces; palette_test.go checks it. Within that band few hues stay
	// apart for red- and green-blind readers, so the first six were picked
	// by a search for the largest least distance (distinct.go) and every
	// pair of them differs by at least minDistance; the last four are used
	// only in charts with more than six names.
	return [paletteSize]string{
		"#4e79a7", // blue
		"#d67500", // orange
		"#b43c6c", // raspberry
		"#cc60fc", // violet
		"#0ba45d", // green
		"#cc240c", // red
		"#599995", // teal
		"#ac8900", // gold (pure yellow vanishes on white)
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
	case "queued", "queue", "waiting", "wait", "idle", "reading speed", "reading", "reader", "request rate":
		return greyColour, true
	case "prefill":
		return "#d67500", true
	case "decode":
		return "#4e79a7", true
	case "budget", "deadline", "timeout", "slo", "error", "errors", "dropped", "timed out":
		return "#cc240c", true
	case "network", "transfer":
		return "#599995", true
	case "retrieval", "rag", "context", "lookup":
		return "#0ba45d", true
	case "moderation", "guardrails", "guardrail":
		return "#cc60fc", true
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

// of returns the colour of name, assigning one on first use: the core
// hue its name hashes to when that is free and far from every colour the
// chart already uses, else the first core hue that is, else the free hue
// farthest from them.
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
	start := int(h.Sum32() % coreSize)
	col := pal[start]
	if !c.farFromTaken(col) {
		col = c.farthestFree(pal[:], start)
	}
	c.byName[name] = col
	c.taken[col] = true
	return col
}

// farFromTaken says whether col is unused and at least minDistance from
// every colour in use.
func (c *colours) farFromTaken(col string) bool {
	return !c.taken[col] && c.nearestTaken(col) >= minDistance
}

// nearestTaken is col's distance to the closest colour in use. Grey is
// left out: it marks references and waiting, drawn dashed or as gaps, and
// counting it would move a series off its colour only in the charts that
// have a reference line (continuous batching blue in one chart of a lab,
// green in the next).
func (c *colours) nearestTaken(col string) float64 {
	d := math.Inf(1)
	for t := range c.taken {
		if t != greyColour {
			d = min(d, distance(col, t))
		}
	}
	return d
}

// farthestFree picks the first core hue far from every colour in use, or
// failing that the unused hue farthest from them (pal[fallback] when all
// are used: a chart of more than ten names repeats colours).
func (c *colours) farthestFree(pal []string, fallback int) string {
	for _, p := range pal[:coreSize] {
		if c.farFromTaken(p) {
			return p
		}
	}
	best, bestD := pal[fallback], -1.0
	for _, p := range pal {
		if d := c.nearestTaken(p); !c.taken[p] && d > bestD {
			best, bestD = p, d
		}
	}
	return best
}

// RunHues are the colours of two runs drawn on one chart, series by
// series: the first run's series take the first list in order, the
// second's the second. Their first three each are the six core hues, so up
// to three series a run every line differs from every other for every
// reader.
func RunHues() (first, second []string) {
	p := palette()
	return []string{p[0], p[4], p[3], p[6]}, []string{p[1], p[5], p[2], p[7]}
}
