package web

import (
	"slices"

	"github.com/latencylab/latencylab/labs"
)

// unmeasuredNote ends the note of a card on a server run whose figure the
// lab works out on the bundled engine (labs.NotMeasuredStats).
const unmeasuredNote = "worked out on the bundled engine: the server does not report it"

// markUnmeasured passes a server run's frames on with every card the lab
// works out on the bundled engine saying so, so a learner does not read
// it as the server's measurement (the comparison under the run marks the
// same figures "not measured").
func markUnmeasured(slug string, send func(labs.Frame) error) func(labs.Frame) error {
	keys := labs.NotMeasuredStats(slug)
	if len(keys) == 0 {
		return send
	}
	return func(f labs.Frame) error {
		if len(f.Stats) > 0 {
			f.Stats = slices.Clone(f.Stats)
			for i, st := range f.Stats {
				if !slices.Contains(keys, st.Key) {
					continue
				}
				if st.Note == "" {
					f.Stats[i].Note = unmeasuredNote
				} else {
					f.Stats[i].Note = st.Note + "; " + unmeasuredNote
				}
			}
		}
		return send(f)
	}
}
