package cancellation

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs/labtest"
)

// On a host whose every wait ends 150 ms late the turn's figures are the
// modelled ones, and only the starved run says the server was busy.
func TestStarvedHostKeepsFigures(t *testing.T) {
	labtest.CheckStarvedPresets(t, labtest.OnFakeDesk(t, New), labtest.Inert(t, define), nil,
		150*time.Millisecond, 0, 0, "Read to the end")
}
