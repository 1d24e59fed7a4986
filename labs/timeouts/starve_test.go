package timeouts

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// On a host whose every wait ends 150 ms late (stages, network legs, the
// faults' delays and the engine's runner scheduled late) the timeouts fire
// on the modelled timeline, so fallbacks, timeouts and the first-word
// percentiles are the calm run's, and only the starved run says the
// server was busy. The hosted preset runs without other tenants: their
// arrivals are the host's.
func TestStarvedHostKeepsFigures(t *testing.T) {
	newLab := labtest.OnFakeDesk(t, func(cfg Config) (*Lab, error) { return newLab(cfg, 0) })
	labtest.CheckStarvedPresets(t, newLab, labtest.Inert(t, define), labs.Values{pipelinelab.KnobTenants: 0.0},
		150*time.Millisecond, 0.002, "", "5 s first-token timeout with fallback", hostedPreset)
}
