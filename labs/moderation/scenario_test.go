package moderation

import (
	"context"
	"slices"
	"testing"

	mod "github.com/latencylab/latencylab/engine/moderation"
)

// TestScenarioAnswers checks that each scenario's composed answer really
// carries what the scenario promises, and that the prompt check tells the
// injection apart from honest questions.
func TestScenarioAnswers(t *testing.T) {
	c, err := mod.NewChecker(mod.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		want        []mod.Category
		promptBlock bool
	}{
		{scenarioClean, nil, false},
		{scenarioLeak, []mod.Category{mod.PIICard, mod.PIIEmail}, false},
		{scenarioInjection, []mod.Category{mod.PolicyCredTheft, mod.PolicyFraud}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := buildRequest(scenarios[tc.name], "Session moderation-test-1")
			out := c.Detect(req.answer.Text)
			if !slices.Equal(out.Categories, tc.want) {
				t.Errorf("answer categories %v, want %v\n%s", out.Categories, tc.want, req.answer.Text)
			}
			if len(req.answer.Tokens) < 40 {
				t.Errorf("answer of %d tokens is too short to show a window", len(req.answer.Tokens))
			}
			p, err := c.CheckPrompt(context.Background(), scenarios[tc.name].question)
			if err != nil {
				t.Fatal(err)
			}
			if p.Blocked() != tc.promptBlock {
				t.Errorf("prompt check %v (%v), want blocked %v", p.Verdict, p.Categories, tc.promptBlock)
			}
		})
	}
}

// TestScenarioVerdictsAcrossWindows runs each scenario's answer through
// the buffered window at many sizes with checks answering at once: the
// clean answer must never be blocked (no false alarm on a fragment cut by
// a window edge), and the leak must always be caught once the overlap
// covers the e-mail address (or windows end at sentence boundaries).
func TestScenarioVerdictsAcrossWindows(t *testing.T) {
	c, err := mod.NewChecker(mod.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []string{scenarioClean, scenarioLeak, scenarioInjection} {
		req := buildRequest(scenarios[sc], "Session x")
		for _, unit := range []mod.Unit{mod.Tokens, mod.Sentences} {
			for w := 1; w <= 100; w += 3 {
				for o := 0; o <= 40; o += 5 {
					f, err := mod.NewFilter(mod.FilterConfig{Policy: mod.BufferedWindow, Unit: unit, Window: w, Overlap: o})
					if err != nil {
						t.Fatal(err)
					}
					var caught []mod.Category
					var do func([]mod.Action)
					do = func(acts []mod.Action) {
						for _, a := range acts {
							switch a.Kind {
							case mod.ActCheck:
								do(f.Checked(a.ID, c.Detect(a.Text)))
							case mod.ActCaught:
								caught = a.Result.Categories
							}
						}
					}
					for _, p := range req.answer.Pieces {
						do(f.Token(p))
					}
					do(f.End())
					switch {
					case sc == scenarioClean && len(caught) > 0:
						t.Errorf("clean answer blocked (%s, window %d, overlap %d): %v", unit, w, o, caught)
					case sc != scenarioClean && (o >= 10 || unit == mod.Sentences) && len(caught) == 0:
						t.Errorf("%s answer not caught (%s, window %d, overlap %d)", sc, unit, w, o)
					}
				}
			}
		}
	}
}
