package labs

import "slices"

// notMeasured are, per lab slug, the stats a lab works out on the bundled
// engine whatever engine its live requests went to: fits over a sweep on
// the virtual clock, the roofline's arithmetic intensities, counts read
// from the engine's step trace (a server does not report its steps), and
// what follows from them. A run on the server still shows them on its
// cards, from the bundled engine; the side-by-side never puts them in the
// server's measured column. Keys are held to each lab's stats by a test.
var notMeasured = map[string][]string{
	"prefill-decode": {"ms_per_1k_prompt_tokens", "ms_per_output_token", "prefill_intensity", "decode_intensity", "ridge_point",
		"cached_tokens"},
	"batching":     {"preemptions"},
	"cancellation": {"tokens_generated", "tokens_after_disconnect", "cost_saved"},
}

// NotMeasuredStats lists the stat keys of the lab slug that a run on the
// server does not measure (see notMeasured).
func NotMeasuredStats(slug string) []string { return slices.Clone(notMeasured[slug]) }

// MeasuredOnServer reports whether the stat key of the lab slug, on a run
// on the upstream server, is the server's measurement: false for the
// figures the lab works out on the bundled engine (see notMeasured).
func MeasuredOnServer(slug, key string) bool { return !slices.Contains(notMeasured[slug], key) }
