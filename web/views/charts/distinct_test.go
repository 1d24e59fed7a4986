package charts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The distance sees what a colour-blind reader sees: a red and a green of
// like lightness are far apart to most readers and close to the
// green-blind, and two reds are close to everyone.
func TestDistanceSimulatesColourBlindness(t *testing.T) {
	tests := []struct {
		name     string
		a, b     string
		distinct bool
	}{
		{"blue and orange", "#4e79a7", "#d67500", true},
		{"red and green of like lightness", "#c8503c", "#64963c", false},
		{"two reds (the old moderation comparison)", "#e15759", "#cf727c", false},
		{"brown and pink (the old sequential and static)", "#9c755f", "#cf727c", false},
		{"a colour and itself", "#4e79a7", "#4e79a7", false},
		{"not a colour", "red", "#4e79a7", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := distance(tc.a, tc.b); (d >= minDistance) != tc.distinct {
				t.Errorf("distance(%s, %s) = %.1f; want distinct %v (threshold %d)", tc.a, tc.b, d, tc.distinct, minDistance)
			}
		})
	}
}

// Every pair of core hues, and of the core hues the fixed names use, is
// at least minDistance apart for every reader.
func TestCorePaletteDistinct(t *testing.T) {
	pal := palette()
	for i := range coreSize {
		for j := i + 1; j < coreSize; j++ {
			if d := distance(pal[i], pal[j]); d < minDistance {
				t.Errorf("core hues %s and %s: distance %.1f, want ≥ %d", pal[i], pal[j], d, minDistance)
			}
		}
	}
}

// chartNames are the series names of the labs' charts that draw several
// series: every one must come out with colours apart for every reader.
var chartNames = map[string][]string{
	"batching sweep": {"sequential", "static", "continuous", "request rate"},
	"moderation comparison": {"tokens generated", "delivered: No moderation", "delivered: Stream, then moderate", "delivered: Moderate, then send",
		"delivered: Buffered window", "delivered: Buffered window + abort mid-stream"},
	"moderation run":             {"tokens generated", "tokens delivered"},
	"streaming side by side":     {"streamed answer", "blocked answer", "reading speed"},
	"streaming":                  {"words on screen", "reading speed"},
	"batching live":              {"queued", "prefill", "decode", "done, seat held"},
	"pipeline stages":            {"guardrail", "retrieval", "prefill", "decode", "budget"},
	"two model calls":            {"answer", "second call", "prefill", "decode"},
	"levers":                     {"medium", "small", "large", "budget"},
	"budget with lookups":        {"history", "retrieval", "order lookup", "first token", "writing"},
	"rag":                        {"no context", "top 1", "top 5", "top 20"},
	"prefill vs decode, 3 GPUs":  {"a100-80g", "h100-sxm", "l40s"},
	"timeouts":                   {"completed", "timed out", "retried"},
	"four runs of the same name": {"run #1", "run #2", "run #3", "run #4"},
	// Fixed hues outside the core: the other names keep clear of them.
	"network and gateway": {"network", "gateway", "north", "south", "east"},
	"tokenize":            {"tokenize", "series a", "series b", "series c", "series d"},
}

func TestLabChartColoursDistinct(t *testing.T) {
	for chart, names := range chartNames {
		t.Run(chart, func(t *testing.T) { checkDistinct(t, names) })
	}
}

// Any chart of up to coreSize names, some of them fixed, gets colours
// apart for every reader (seeded, so a failure repeats).
func TestRandomChartColoursDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fixed := []string{"prefill", "decode", "retrieval", "moderation", "budget", "queued"}
	for trial := range 300 {
		n := 2 + rng.IntN(coreSize-1)
		var names []string
		for i := range n {
			if rng.IntN(4) == 0 {
				names = append(names, fixed[rng.IntN(len(fixed))])
			} else {
				names = append(names, fmt.Sprintf("series %d-%d", trial, i))
			}
		}
		checkDistinct(t, names)
	}
}

// checkDistinct assigns colours to names as one chart does and fails on
// any two data colours closer than minDistance. Exempt: grey, which marks
// waiting and references and is told apart by its dashes, and two fixed
// names, whose hues are chosen once for every chart (a stage waterfall
// labels each row as well).
func checkDistinct(t *testing.T, names []string) {
	t.Helper()
	c := newColours(names)
	for i, a := range names {
		for _, b := range names[i+1:] {
			ca, cb := c.of(a), c.of(b)
			_, fixedA := fixedColour(a)
			_, fixedB := fixedColour(b)
			if a == b || ca == greyColour || cb == greyColour || (fixedA && fixedB) {
				continue
			}
			if d := distance(ca, cb); d < minDistance {
				t.Errorf("in %q: %q (%s) and %q (%s) are %.1f apart, want ≥ %d", names, a, ca, b, cb, d, minDistance)
			}
		}
	}
}

// Two runs on one chart: up to three series a run, every line differs
// from every other.
func TestRunHuesDistinct(t *testing.T) {
	first, second := RunHues()
	all := append(append([]string(nil), first[:3]...), second[:3]...)
	for i, a := range all {
		for _, b := range all[i+1:] {
			if d := distance(a, b); d < minDistance {
				t.Errorf("run hues %s and %s: distance %.1f, want ≥ %d", a, b, d, minDistance)
			}
		}
	}
}

// A reference line does not move a series off its colour: the same names
// get the same colours with and without one.
func TestReferenceLineKeepsColours(t *testing.T) {
	names := []string{"sequential", "static", "continuous"}
	plain := newColours(names)
	withRef := newColours(append(slices.Clone(names), "request rate"))
	for _, n := range names {
		if plain.of(n) != withRef.of(n) {
			t.Errorf("%q is %s alone and %s beside a reference line", n, plain.of(n), withRef.of(n))
		}
	}
}
