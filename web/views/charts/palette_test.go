package charts

import "testing"

func TestFixedColours(t *testing.T) {
	c := newColours([]string{"decode", "queued", "prefill", "Reading speed"})
	for name, want := range map[string]string{
		"queued": greyColour, "prefill": "#f28e2b", "decode": "#4e79a7", "Reading speed": greyColour,
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
	if a.of("alpha") == "#f28e2b" || a.of("beta") == "#f28e2b" {
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
