package labs

import (
	"fmt"
	"strings"
)

// providerKnobs are the knobs that make the bundled engine play a hosted
// provider: the network to it, a new connection per call, other tenants'
// traffic on its engine, its GPU class and a speed cap on its answers.
// Each maps to the value at which it adds nothing. A real server already
// has all of these of its own, so a run on it with one of them set would
// either ignore the knob or add a modelled time to a measured one;
// ServerConflicts refuses it instead. The names are the pipeline labs'
// hosting knobs (labs/pipelinelab) and the streaming lab's speed cap,
// held to them by a test.
var providerKnobs = map[string]any{
	"rttMs":           0.0,
	"freshConnection": false,
	"tenantRate":      0.0,
	"providerGpu":     "own",
	"speedCap":        0.0,
}

// ServerConflicts checks settings v of a lab with knobs before a run on
// the upstream server: one FieldError under each knob that models a
// provider and is not at its neutral value, and a summary naming them all
// for the page's error box, so the learner sees what to switch off or
// that the bundled engine is the place for them. None and "" when nothing
// conflicts.
func ServerConflicts(knobs []Knob, v Values) ([]FieldError, string) {
	var errs []FieldError
	var labels []string
	for _, k := range knobs {
		off, ok := providerKnobs[k.Name]
		if !ok || v[k.Name] == nil || v[k.Name] == off {
			continue
		}
		labels = append(labels, "“"+k.Label+"”")
		msg := "Set this to " + neutral(k, off) + " to run on that server."
		if off == false {
			msg = "Turn this off to run on that server."
		}
		errs = append(errs, FieldError{Knob: k.Name, Message: msg})
	}
	if len(errs) == 0 {
		return nil, ""
	}
	msg := fmt.Sprintf("%s %s a hosted provider on the bundled engine, and that server is a real one with its own network and load, "+
		"so its timings cannot include %[3]s. Set %[4]s as marked to measure that server, or pick the bundled engine to keep %[3]s.",
		joinAnd(labels), plural(len(labels), "models", "model"), plural(len(labels), "it", "them"), plural(len(labels), "it", "each"))
	return errs, msg
}

// neutral is how the knob's page shows its neutral value.
func neutral(k Knob, off any) string {
	if x, ok := off.(string); ok {
		for _, o := range k.Options {
			if o.Value == x {
				return "“" + o.Label + "”"
			}
		}
		return "“" + x + "”"
	}
	if k.ZeroLabel != "" {
		return k.ZeroLabel
	}
	return strings.TrimSpace("0 " + k.Unit)
}

// plural picks one for a single item, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// joinAnd lists items as "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
