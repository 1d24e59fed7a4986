package cancellation

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// runLab runs the lab in a synctest bubble: the live engine's pacing and
// the pipeline's waits are on virtual time, so counts and times are exact.
// check, when set, runs inside the bubble after the run with the pool.
func runLab(t *testing.T, vals labs.Values, check func(*labs.Engines)) []labs.Frame {
	t.Helper()
	return labtest.RunInBubble(t, labtest.OnFakeDesk(t, New), vals, check)
}
