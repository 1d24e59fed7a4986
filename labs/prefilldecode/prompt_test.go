package prefilldecode

import (
	"math"
	"testing"

	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestSupportPromptIs3200Tokens: the default preset reproduces the lesson's
// example, counted by the real tokenizer over the chat-templated prompt.
func TestSupportPromptIs3200Tokens(t *testing.T) {
	s := mustParse(t, labtest.Inert(t, define).Presets()[0].Values)
	p, err := buildPrompt(s.spec, "Session prefill-decode-0a1b2c3d-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	n := len(textmodel.PromptTokens(p.msgs))
	if n != len(p.ids) {
		t.Fatalf("prompt ids %d, template renders %d", len(p.ids), n)
	}
	if math.Abs(float64(n)-3200) > 0.02*3200 {
		t.Errorf("support prompt has %d tokens, want 3,200 ± 2%%", n)
	}
	want := map[string]float64{partSystem: 200, partRAG: 2000, partHistory: 1000, partQuestion: 30}
	for _, part := range p.parts {
		w, ok := want[part.name]
		if !ok {
			t.Errorf("unexpected part %q", part.name)
			continue
		}
		// The question is written, not cut, so it is only about 30.
		tol := 0.03
		if part.name == partQuestion {
			tol = 0.35
		}
		if math.Abs(float64(part.tokens)-w) > tol*w {
			t.Errorf("%s: %d tokens, want about %v", part.name, part.tokens, w)
		}
	}
}

// TestPartsAddUp: for every kind of prompt the parts sum to the prompt.
func TestPartsAddUp(t *testing.T) {
	tests := []struct {
		name string
		spec promptSpec
		who  customer
	}{
		{"support prompt", promptSpec{system: 200, chunks: 20, turns: 20}, 0},
		{"second customer", promptSpec{system: 200, chunks: 20, turns: 20}, 1},
		{"no chunks, odd turns", promptSpec{system: 50, turns: 3}, 0},
		{"question only", promptSpec{system: 50}, 1},
		{"long system prompt", promptSpec{system: 4000, chunks: 1, turns: 1}, 0},
		{"plain", promptSpec{plain: true, total: 1000, system: 200}, 0},
		{"plain, system prompt capped", promptSpec{plain: true, total: 128, system: 4000}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := buildPrompt(tc.spec, "Session x", tc.who)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0
			for _, part := range p.parts {
				if part.tokens <= 0 {
					t.Errorf("part %q has %d tokens", part.name, part.tokens)
				}
				sum += part.tokens
			}
			if sum != len(p.ids) {
				t.Errorf("parts %v sum to %d, prompt has %d", p.parts, sum, len(p.ids))
			}
			if !tc.spec.plain {
				if got := p.parts[0].tokens; math.Abs(float64(got-tc.spec.system)) > 2 {
					t.Errorf("system prompt %d tokens, want %d", got, tc.spec.system)
				}
			}
		})
	}
}

// TestPlainPromptIsExact: a plain prompt has exactly the chosen length.
func TestPlainPromptIsExact(t *testing.T) {
	for _, n := range []int{128, 129, 1000, 3200, 8191, 16384} {
		for _, sys := range []int{50, 200, 4000} {
			p, err := buildPrompt(promptSpec{plain: true, total: n, system: sys}, "Session y", 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.ids) != n {
				t.Errorf("plain prompt of %d (system %d) has %d tokens", n, sys, len(p.ids))
			}
		}
	}
}

// TestPromptSharing: the same session shares the system prompt's tokens
// (so a cache can serve them); another session shares less than one block.
func TestPromptSharing(t *testing.T) {
	spec := promptSpec{system: 2000, chunks: 5, turns: 4}
	a, _ := buildPrompt(spec, "Session s-1", 0)
	same, _ := buildPrompt(spec, "Session s-1", 1)
	other, _ := buildPrompt(spec, "Session s-1b", 1)
	if n := commonPrefix(a.ids, same.ids); n < 2000 || n > 2040 {
		t.Errorf("same session: %d leading tokens shared, want the 2,000-token system prompt and the next header", n)
	}
	if n := commonPrefix(a.ids, other.ids); n >= 16 {
		t.Errorf("other session: %d leading tokens shared, want less than a block", n)
	}
	if commonPrefix(a.ids, same.ids) == len(a.ids) {
		t.Error("the second customer's prompt is the same as the first")
	}
}

func commonPrefix(a, b []int) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func TestTooShortPlainPrompt(t *testing.T) {
	if _, err := buildPrompt(promptSpec{plain: true, total: 40, system: 200}, "Session z", 0); err == nil {
		t.Error("a 40-token plain prompt was built")
	}
}
