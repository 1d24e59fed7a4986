package moderation

import (
	"fmt"

	"github.com/latencylab/latencylab/labs"
)

// countsWhy adds the formulas of a finished run's counts to out: checks
// made, tokens generated and unsafe tokens shown, each split into the
// parts the meter saw.
func countsWhy(m *meter, out map[string]labs.Formula) {
	prompt := 0
	if m.promptAt != none {
		prompt = 1
	}
	checks := labs.Tally("", labs.Term{Name: "prompt check", Value: float64(prompt)},
		labs.Term{Name: "checks of the answer", Value: float64(m.checks - prompt)})
	checks.Before = "Checks = the prompt's check (when it is on) + each check of the answer:"
	out[statChecks] = checks

	n := len(m.pieces)
	gen := labs.Tally("tokens", labs.Term{Name: "shown to the reader", Value: float64(m.delivered)},
		labs.Term{Name: "written but never shown", Value: float64(n - m.delivered)})
	gen.Before = "Tokens generated = tokens the reader saw + tokens the model wrote (and was paid for) that never reached the screen:"
	if m.abortAt != none {
		gen.Lead = fmt.Sprintf("The abort stopped the model at token %s", labs.Thousands(n))
	} else if n > m.delivered {
		gen.Lead = "Nothing stopped the model, so it wrote to the end of the answer while the reader was shown less"
	}
	out[statGenerated] = gen

	if m.truth == nil {
		return
	}
	u := m.truth
	shown := labs.Formula{Unit: "tokens", Result: float64(u.leaked),
		Before: "Unsafe tokens shown = tokens inside personal data or off-policy text that the model wrote − those moderation kept off the screen:",
		Expr:   fmt.Sprintf("%s written − %s kept back", labs.Count(u.unsafe, "unsafe token"), labs.Thousands(u.unsafe-u.leaked))}
	switch {
	case u.unsafe == 0:
		shown.Lead = "The answer held nothing unsafe"
	case u.leaked == 0:
		shown.Lead = "Moderation kept every unsafe token back"
	case u.leaked == u.unsafe:
		shown.Lead = "Every unsafe token reached the screen before a check could stop it"
	}
	out[statLeaked] = shown
}
