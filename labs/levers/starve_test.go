package levers

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// On a host whose every wait ends 150 ms late (stages, network legs and
// the engine's runner scheduled late) every lever's figures are the
// modelled ones, and only the starved run says the server was busy. The
// hosted preset runs without other tenants: their arrivals are the host's.
func TestStarvedHostKeepsFigures(t *testing.T) {
	labtest.CheckStarvedPresets(t, onFakeDesk(t, time.Hour), labtest.Inert(t, define),
		labs.Values{pipelinelab.KnobTenants: 0.0}, 150*time.Millisecond, 0.0005, "", hostedPreset)
}
