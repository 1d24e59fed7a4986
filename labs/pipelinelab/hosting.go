package pipelinelab

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Hosting knob names (Datastar signals), shared by every pipeline lab.
const (
	KnobRTT     = "rttMs"
	KnobFresh   = "freshConnection"
	KnobTenants = "tenantRate"
	KnobGPU     = "providerGpu"
	KnobTraffic = "trafficSeed"
)

// GPUOwn is the GPU knob's value for the tier's own GPU.
const GPUOwn = "own"

// Hosting is the knobs that make the model tiers a hosted provider's: how
// far away it is, whether each call opens a new connection, how much of
// other tenants' traffic shares its engine, and its GPU. A lab embeds it in
// its params and adds HostingKnobs to its knobs.
type Hosting struct {
	RTTMs   float64
	Fresh   bool
	Tenants float64
	GPU     string
	Seed    int
}

// Idle is no provider at all: the tiers as the bundled engine serves them,
// next door and to yourself.
var Idle = Hosting{GPU: GPUOwn, Seed: 4}

// AsInTheLesson is a hosted tier as the lessons describe one: a provider
// ~190 ms away reached over a fresh TLS connection per call, serving about
// 9 other requests a second on the same H100s. The figures this gives are
// held by each lab's tests.
var AsInTheLesson = Hosting{RTTMs: 190, Fresh: true, Tenants: 9, GPU: GPUOwn, Seed: 4}

// HostingKnobs declares every hosting knob over the Hosting that get finds
// in a lab's params: the network, the other tenants and the GPU class.
func HostingKnobs[P any](get func(*P) *Hosting) []labs.Field[P] {
	return append(append(NetworkKnobs(get), TenantKnobs(get)...), GPUClassKnob(get))
}

// NetworkKnobs are the round trip to the provider and whether each call
// opens a new connection.
func NetworkKnobs[P any](get func(*P) *Hosting) []labs.Field[P] {
	return []labs.Field[P]{
		labs.Bind(labs.Knob{Name: KnobRTT, Label: "Network round trip to the provider", Unit: "ms", Min: 0, Max: 400, Step: 5,
			Help: "0 puts the GPU next to the gateway. The request travels half of it out, each chunk half of it back."},
			func(p *P) *float64 { return &get(p).RTTMs }),
		labs.Bind(labs.Knob{Name: KnobFresh, Label: "New connection for every call",
			Help: "Open TCP and TLS again for each call (two more round trips) instead of reusing a kept-alive connection."},
			func(p *P) *bool { return &get(p).Fresh }),
	}
}

// TenantKnobs are other tenants' traffic on the provider's engine and
// which random pattern of it to replay.
func TenantKnobs[P any](get func(*P) *Hosting) []labs.Field[P] {
	return []labs.Field[P]{
		labs.Bind(labs.Knob{Name: KnobTenants, Label: "Other tenants' traffic on the provider", Unit: "req/s", Min: 0, Max: 20, Step: 0.5,
			Help: "Other people's chats arriving at random on the same engine; they share its queue and every batch with yours."},
			func(p *P) *float64 { return &get(p).Tenants }),
		labs.Bind(labs.Knob{Name: KnobTraffic, Label: "Their traffic pattern", Min: 1, Max: 99, Step: 1,
			Help: "Which random pattern of other tenants' arrivals to replay; the same number repeats the same traffic."},
			func(p *P) *int { return &get(p).Seed }),
	}
}

// GPUClassKnob is the GPU the provider runs every tier on.
func GPUClassKnob[P any](get func(*P) *Hosting) labs.Field[P] {
	gpus := []labs.Option{{Value: GPUOwn, Label: "The tier's own (H100 SXM)"},
		{Value: "a100-80g", Label: "A100 80 GB (older, less compute)"}, {Value: "h100-pcie", Label: "H100 PCIe (less bandwidth)"}}
	return labs.Bind(labs.Knob{Name: KnobGPU, Label: "Provider's GPU", Options: gpus,
		Help: "The GPU class the provider runs every tier on."},
		func(p *P) *string { return &get(p).GPU })
}

// Pipeline is the pipeline's Hosting for these knobs.
func (h Hosting) Pipeline() pipeline.Hosting {
	out := pipeline.Hosting{RTT: time.Duration(h.RTTMs * float64(time.Millisecond)), FreshConnection: h.Fresh,
		Tenants: pipeline.TenantLoad{Rate: h.Tenants, Seed: uint64(max(h.Seed, 0))}}
	if h.GPU != GPUOwn && h.GPU != "" {
		out.Hardware = h.GPU
	}
	return out
}

// Describe is a short line naming the causes that are on, for a status.
func (h Hosting) Describe() string {
	if h.RTTMs <= 0 && h.Tenants <= 0 && (h.GPU == GPUOwn || h.GPU == "") {
		return "The model runs next door, on an engine of its own."
	}
	s := fmt.Sprintf("Provider %s away", labs.FormatMS(h.RTTMs))
	if h.Fresh {
		s += " over a new connection per call"
	}
	if h.Tenants > 0 {
		s += fmt.Sprintf(", %g other requests/s on its engine", h.Tenants)
	}
	if h.GPU != GPUOwn && h.GPU != "" {
		s += ", on " + h.GPU
	}
	return s + "."
}

// settling is the status a run shows while what (the provider's engines)
// starts with its tenants' traffic.
func (h Hosting) settling(what string) labs.Frame {
	return labs.Frame{Status: "Starting " + what + " with other tenants' traffic on it… " + h.Describe()}
}

// Engine is the engine a lab that submits to the engine itself (not
// through the pipeline) runs prof on, and what to call when the run ends:
// the shared pool's engine, or, with other tenants' traffic on, a
// provider's engine of the run's own carrying that traffic, started and
// warmed up here (it tells the learner through emit first) and stopped
// by the returned func. The network is the caller's to add
// (see pipeline.Hosting.Legs): such labs time tokens themselves. The
// warm-up ends the network's upload early, so the request reaches the
// engine when the traffic is steady and the same traffic with or without
// the network.
func (h Hosting) Engine(ctx context.Context, pool *labs.Engines, prof labs.Profile, emit func(labs.Frame)) (*live.Engine, func(), error) {
	le, stop, err := h.engine(ctx, pool, prof, emit)
	if err != nil && ctx.Err() != nil {
		return nil, nil, ctx.Err() // the learner left or stopped during the warm-up
	}
	return le, stop, err
}

// engine is Engine without the context's error in place of the cause.
func (h Hosting) engine(ctx context.Context, pool *labs.Engines, prof labs.Profile, emit func(labs.Frame)) (*live.Engine, func(), error) {
	ph := h.Pipeline()
	if !ph.Tenants.On() {
		le, err := pool.For(ctx).Get(prof)
		if err != nil {
			return nil, nil, fmt.Errorf("engine for %s: %w", prof, err)
		}
		return le, func() {}, nil
	}
	emit(h.settling("the provider's engine"))
	cfg, err := prof.Config()
	if err != nil {
		return nil, nil, err
	}
	he, err := pipeline.StartHostedEngine(cfg, ph, pool.Clock())
	if err != nil {
		return nil, nil, fmt.Errorf("provider's engine for %s: %w", prof, err)
	}
	stop := func() { _ = he.Close() }
	up, _ := ph.Legs()
	if err := he.WarmUp(ctx, up); err != nil {
		stop()
		return nil, nil, err
	}
	return he.Engine, stop, nil
}

// Simulate times req on the virtual clock as a tier hosted by h would: on
// h's GPU, sharing the engine with h's tenant traffic (req arrives once
// that traffic is steady, as a live run's does), behind h's network. The
// times are the gateway's: from sending the request to the first and the
// last chunk arriving back.
func (h Hosting) Simulate(cfg engine.Config, req engine.Request) (ttft, e2e time.Duration, err error) {
	ph := h.Pipeline()
	if err := ph.Validate(); err != nil {
		return 0, 0, err
	}
	if err := ph.Apply(&cfg); err != nil {
		return 0, 0, err
	}
	reqs := []engine.Request{req}
	if ph.Tenants.On() {
		req.Arrival = pipeline.DefaultWarmUp
		tenants := ph.Tenants.Requests(req.Arrival + 20*time.Second)
		reqs = append(tenants, req)
		sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Arrival < reqs[j].Arrival })
	}
	res, err := engine.Simulate(cfg, reqs, engine.SimOptions{})
	if err != nil {
		return 0, 0, err
	}
	for _, r := range res.Requests {
		if r.ID == req.ID {
			up, down := ph.Legs()
			return up + r.TTFT() + down, up + r.E2E() + down, nil
		}
	}
	return 0, 0, fmt.Errorf("simulate: request %s has no result", req.ID)
}

func (r *Run) tierIndex(name string) int {
	for i, t := range r.Tiers {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// onEnd registers fn to run when the run returns.
func (r *Run) onEnd(fn func()) { *r.ends = append(*r.ends, fn) }
