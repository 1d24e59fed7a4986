package practice

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
)

var testSeeds = []uint64{1, 42, 20260}

func TestTemplatesCoverEveryLessonAndAreDeterministic(t *testing.T) {
	if n := len(Templates()); n < 30 {
		t.Fatalf("%d templates, want at least 30", n)
	}
	lessons := map[string]int{}
	ids := map[string]bool{}
	for _, tm := range Templates() {
		if ids[tm.ID] {
			t.Errorf("duplicate id %s", tm.ID)
		}
		ids[tm.ID] = true
		lessons[tm.Lesson]++
		for _, seed := range testSeeds {
			a, err := tm.Draw(seed)
			if err != nil {
				t.Fatalf("%s: %v", tm.ID, err)
			}
			b, _ := tm.Draw(seed)
			if a.Question != b.Question || a.Answer != b.Answer {
				t.Errorf("%s seed %d: two draws differ", tm.ID, seed)
			}
			if len(a.Steps) == 0 || len(a.Given) == 0 {
				t.Errorf("%s seed %d: no worked solution or no parameters", tm.ID, seed)
				continue
			}
			// The worked solution must end on the answer the learner is graded against.
			if last := a.Steps[len(a.Steps)-1].Formula; !strings.Contains(last, tm.Format(a.Answer)) {
				t.Errorf("%s seed %d: last step %q does not show the answer %s", tm.ID, seed, last, tm.Format(a.Answer))
			}
		}
	}
	if len(lessons) != 10 {
		t.Errorf("templates cover %d lessons, want 10: %v", len(lessons), lessons)
	}
}

func TestSeedsDrawDifferentParameters(t *testing.T) {
	for _, tm := range Templates() {
		seen := map[string]bool{}
		for seed := uint64(0); seed < 8; seed++ {
			p, err := tm.Draw(seed)
			if err != nil {
				t.Fatal(err)
			}
			seen[fmt.Sprint(p.Question, p.Given)] = true
		}
		if len(seen) < 3 {
			t.Errorf("%s: 8 seeds gave only %d different questions", tm.ID, len(seen))
		}
	}
}

// TestAnswersMatchEngine recomputes answers through another path of the
// engine's code (the roofline's single step, the model's own sizes, the
// gateway's price) for three seeds each.
func TestAnswersMatchEngine(t *testing.T) {
	within := func(t *testing.T, what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*want {
			t.Errorf("%s: answer %g, engine says %g (tolerance %g%%)", what, got, want, tol*100)
		}
	}
	checks := map[string]func(t *testing.T, p Problem){
		"ttft-prompt": func(t *testing.T, p Problem) {
			d, err := prefillStep(p.env.cfg, p.env.prompt)
			if err != nil {
				t.Fatal(err)
			}
			within(t, "ttft vs one prefill step", p.Answer, d.Seconds(), 0.02)
		},
		"huge-prompt-ttft": func(t *testing.T, p Problem) {
			// Chunked prefill splits the prompt; one whole step is a floor within 25%.
			d, err := prefillStep(p.env.cfg, p.env.prompt)
			if err != nil {
				t.Fatal(err)
			}
			within(t, "long ttft vs one prefill step", p.Answer, d.Seconds(), 0.25)
		},
		"decode-tpot": func(t *testing.T, p Problem) {
			d, err := decodeStep(p.env.cfg, 1, p.env.prompt+32)
			if err != nil {
				t.Fatal(err)
			}
			within(t, "tpot vs roofline decode step", p.Answer, d.Seconds(), 0.02)
		},
		"fp8-tpot": func(t *testing.T, p Problem) {
			d, err := decodeStep(p.env.cfg, 1, p.env.prompt+32)
			if err != nil {
				t.Fatal(err)
			}
			within(t, "fp8 tpot vs roofline", p.Answer, d.Seconds(), 0.02)
		},
		"stream-rate": func(t *testing.T, p Problem) {
			d, err := decodeStep(p.env.cfg, 1, p.env.prompt+32)
			if err != nil {
				t.Fatal(err)
			}
			within(t, "rate vs 1/decode step", p.Answer, 1/d.Seconds(), 0.02)
		},
		"weights-size": func(t *testing.T, p Problem) {
			// Embeddings and the LM head stay 16-bit in 8-bit checkpoints.
			m := p.env.cfg.Model
			bpp := map[engine.Precision]float64{engine.BF16: 2, engine.FP8: 1}[p.env.cfg.Precision]
			embed := float64(m.VocabSize * m.HiddenSize)
			if !m.TiedEmbeddings {
				embed *= 2
			}
			want := (float64(m.ParamCount())-embed)*bpp + 2*embed
			within(t, "weights vs params × bytes", p.Answer, want, 0.001)
		},
		"kv-per-token": func(t *testing.T, p Problem) {
			m := p.env.cfg.Model
			within(t, "kv per token", p.Answer, float64(2*m.NumLayers*m.NumKVHeads*m.HeadDim*2), 0)
		},
		"kv-capacity": func(t *testing.T, p Problem) {
			e, err := engine.New(p.env.cfg)
			if err != nil {
				t.Fatal(err)
			}
			within(t, "kv tokens vs the engine's blocks", p.Answer, float64(e.Footprint().NumBlocks*engine.BlockSize), 0)
		},
		"request-cost": func(t *testing.T, p Problem) {
			var price float64
			for _, s := range pipeline.DefaultTierSpecs() {
				if s.Name == p.Given[0].Value {
					price = (float64(p.env.prompt)*s.PriceIn + float64(p.env.output)*s.PriceOut) / 1e6
				}
			}
			within(t, "cost vs the tier's prices", p.Answer, price, 1e-9)
		},
	}
	checks["kv-concurrency"] = func(t *testing.T, p Problem) {
		e, err := engine.New(p.env.cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := float64(e.Footprint().NumBlocks * engine.BlockSize / (p.env.prompt + p.env.output))
		within(t, "requests vs the engine's blocks", p.Answer, want, 0)
	}
	checks["rag-extra-ttft"] = func(t *testing.T, p Problem) {
		a, err := prefillStep(p.env.cfg, p.env.prompt)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := prefillStep(p.env.cfg, p.env.output)
		within(t, "extra ttft vs two prefill steps", p.Answer, (b - a).Seconds(), 0.03)
	}
	checks["leak-before-abort"] = func(t *testing.T, p Problem) {
		step, err := decodeStep(p.env.cfg, 1, p.env.prompt+p.env.tokens/2)
		if err != nil {
			t.Fatal(err)
		}
		within(t, "tokens during the check vs the decode step", p.Answer, p.env.extra/step.Seconds(), 0.03)
	}
	checks["shorter-answer"] = func(t *testing.T, p Problem) {
		step, err := decodeStep(p.env.cfg, 1, p.env.prompt+(p.env.output+p.env.tokens)/2)
		if err != nil {
			t.Fatal(err)
		}
		within(t, "time saved vs decode steps", p.Answer, float64(p.env.output-p.env.tokens)*step.Seconds(), 0.03)
	}
	// Single-stream timings: the engine's run against the roofline's one
	// prefill step plus its decode steps at the middle of the answer.
	timing := func(t *testing.T, p Problem) {
		if !p.env.timing {
			t.Fatal("no timing inputs recorded")
		}
		want := p.env.extra
		if !p.env.decodeOnly {
			d, err := prefillStep(p.env.cfg, p.env.prompt)
			if err != nil {
				t.Fatal(err)
			}
			want += d.Seconds()
		}
		step, err := decodeStep(p.env.cfg, 1, p.env.prompt+p.env.tokens/2)
		if err != nil {
			t.Fatal(err)
		}
		want += float64(p.env.tokens-1) * step.Seconds()
		within(t, "timing vs roofline steps", p.Answer, want, 0.03)
	}
	for _, id := range []string{"blocking-wait", "answer-kb", "large-tier-answer", "moderate-then-send", "window-first-text",
		"proxy-buffer", "budget-sequential", "whole-request", "fallback-first-token"} {
		checks[id] = timing
	}
	for id, check := range checks {
		tm, ok := LookupTemplate(id)
		if !ok {
			t.Fatalf("no template %s", id)
		}
		for _, seed := range testSeeds {
			p, err := tm.Draw(seed)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(id, func(t *testing.T) { check(t, p) })
		}
	}
}

func TestGrade(t *testing.T) {
	for _, c := range []struct {
		est, ans, want float64
	}{
		{1, 1, 1}, {1.25, 1, 1}, {0.75, 1, 1}, {1.26, 1, 0.5}, {2, 1, 0.5}, {0.5, 1, 0.5},
		{2.01, 1, 0}, {0.49, 1, 0}, {0, 1, 0}, {1, 0, 0},
	} {
		if got := Grade(c.est, c.ans); got != c.want {
			t.Errorf("Grade(%g, %g) = %g, want %g", c.est, c.ans, got, c.want)
		}
	}
}

func TestDeploymentsValid(t *testing.T) {
	for _, d := range deployments {
		if _, err := d.config(); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
}

// A drill's numbers are drawn per seed, so its title states none of them
// (the title "What if the prompt is 20k tokens?" sat over questions of
// 12,000 to 24,000). Fixed facts of the kind ("p99", "8-bit") may stay.
func TestTitlesStateNoDrawnNumber(t *testing.T) {
	fixed := regexp.MustCompile(`\bp\d+\b|\b\d+-bit\b`)
	for _, tm := range Templates() {
		if rest := fixed.ReplaceAllString(tm.Title, ""); strings.ContainsAny(rest, "0123456789") {
			t.Errorf("%s: title %q states a number the drawn question may not use", tm.ID, tm.Title)
		}
	}
}
