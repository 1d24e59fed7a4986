package charts

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestFixedColours(t *testing.T) {
	c := newColours([]string{"decode", "queued", "prefill", "Reading speed"})
	for name, want := range map[string]string{
		"queued": greyColour, "prefill": "#d67500", "decode": "#4e79a7", "Reading speed": greyColour,
	} {
		if got := c.of(name); got != want {
			t.Errorf("colour of %q = %s, want %s", name, got, want)
		}
	}
}

func TestColoursDistinctAndStable(t *testing.T) {
	names := []string{"streamed", "buffered", "alpha", "beta", "gamma", "delta", "prefill"}
	a := newColours(names)
	seen := map[string]string{}
	for _, n := range names {
		col := a.of(n)
		if other, dup := seen[col]; dup {
			t.Errorf("%q and %q share %s", n, other, col)
		}
		seen[col] = n
	}
	// A name alone in another chart keeps its colour unless it clashed.
	b := newColours([]string{"streamed"})
	if a.of("streamed") != b.of("streamed") {
		t.Errorf("streamed changes colour between charts: %s vs %s", a.of("streamed"), b.of("streamed"))
	}
	// Hashed names never take a fixed colour that the chart already uses.
	if a.of("alpha") == "#d67500" || a.of("beta") == "#d67500" {
		t.Errorf("hashed name took prefill's orange")
	}
}

func TestColoursManyNames(t *testing.T) {
	// More names than palette slots must still get a colour each.
	var names []string
	for i := 0; i < 25; i++ {
		names = append(names, string(rune('a'+i)))
	}
	c := newColours(names)
	for _, n := range names {
		if c.of(n) == "" {
			t.Fatalf("no colour for %q", n)
		}
	}
}

// luminance is the WCAG relative luminance of a #rrggbb colour.
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	var r, g, b int
	if _, err := fmt.Sscanf(strings.TrimPrefix(hex, "#"), "%02x%02x%02x", &r, &g, &b); err != nil {
		t.Fatalf("colour %q: %v", hex, err)
	}
	lin := func(c int) float64 {
		v := float64(c) / 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func contrast(a, b float64) float64 {
	return (math.Max(a, b) + 0.05) / (math.Min(a, b) + 0.05)
}

// Every colour a chart draws data with must stand out (3:1, the WCAG
// ratio for graphics) on the light and the dark page surfaces.
func TestPaletteContrast(t *testing.T) {
	backgrounds := []struct{ name, hex string }{
		{"white", "#ffffff"}, {"light page", "#fbfbfa"}, {"dark surface", "#181b21"}, {"dark page", "#111317"}, {"preview dark", "#0d1117"},
	}
	var cols []string
	for _, c := range palette() {
		cols = append(cols, c)
	}
	cols = append(cols, greyColour, histColour)
	for _, n := range []string{"queued", "prefill", "decode", "budget", "network", "retrieval", "moderation", "gateway", "tokenize"} {
		c, ok := fixedColour(n)
		if !ok {
			t.Fatalf("%q has no fixed colour", n)
		}
		cols = append(cols, c)
	}
	for _, c := range cols {
		for _, bg := range backgrounds {
			if r := contrast(luminance(t, c), luminance(t, bg.hex)); r < 3 {
				t.Errorf("%s on %s (%s): contrast %.2f, want ≥ 3", c, bg.name, bg.hex, r)
			}
		}
	}
}

func TestContrastHelper(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#ffffff", 1},
		{"#777777", "#ffffff", 4.48},
	}
	for _, tt := range tests {
		if got := contrast(luminance(t, tt.a), luminance(t, tt.b)); math.Abs(got-tt.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %.3f, want %.2f", tt.a, tt.b, got, tt.want)
		}
	}
}
