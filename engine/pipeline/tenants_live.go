package pipeline

import (
	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// Background is the load as a live engine's own traffic (live.Background):
// the engine adds each request when its modelled clock reaches the
// request's arrival, so a busy host cannot thin the load out or bunch it
// up, and a learner's request sent at a modelled moment meets the
// tenants the model puts there, however late the host runs (see
// HostedEngine.Settled). At most the load's MaxInFlight run at once; later arrivals
// are dropped, so a rate the engine cannot serve never piles up. Without
// load there is no traffic.
func (t TenantLoad) Background() live.Background {
	if !t.On() {
		return live.Background{}
	}
	g := newTenantGen(t)
	return live.Background{MaxInFlight: t.cap(), Next: func() (engine.Request, bool) { return g.next(), true }}
}
