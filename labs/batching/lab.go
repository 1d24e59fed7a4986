// Package batching is the batching lab: sequential, static and continuous
// batching side by side on a modelled GPU. A live run plays a workload on a
// dedicated live engine (or the shared one) in real time and draws every
// request's queue, prefill and decode spans, the running batch, KV cache use,
// throughput and the gaps between tokens from the engine's step trace. A
// sweep runs the three policies across request rates on the virtual clock
// and draws throughput, p95 time to first token and goodput against load.
package batching

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync/atomic"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// Slug is the lab's URL segment.
const Slug = "batching"

// Config wires a Lab.
type Config struct {
	// Engines is the shared pool used when the learner picks the shared
	// engine; without it that choice fails with a message.
	Engines *labs.Engines
	// Clock paces the dedicated live engines and the arrivals of live
	// runs; nil means the wall clock. Tests pass a fake clock.
	Clock clock.Clock
	// Workers caps the sweep's parallel simulations; 0 means GOMAXPROCS.
	Workers int
}

// Lab is the batching lab. It is safe for concurrent runs.
type Lab struct {
	*labs.Kit[params]
	engines *labs.Engines
	clock   clock.Clock
	workers int
	// tag and seq make request ids and prompts unique per run, so runs
	// never collide on the shared engine nor hit each other's prefix cache.
	tag  string
	salt uint64
	seq  atomic.Uint64
	// started, when set (tests), sees each dedicated engine a run starts;
	// arrived, when set, is called once a live run has submitted its last
	// request (or given up), so a test clock knows only the engine still
	// waits on it.
	started func(*live.Engine)
	arrived func()
}

// New returns the lab. Its only dependency, the shared pool, is optional.
func New(cfg Config) (*Lab, error) {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	l := &Lab{engines: cfg.Engines, clock: clock.Or(cfg.Clock), workers: cfg.Workers,
		tag: hex.EncodeToString(b[:4]), salt: binary.LittleEndian.Uint64(b[:])}
	return labs.Attach(l, &l.Kit)(define(labs.Settled(params.settings, l.run)))
}

// info describes the lab.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Batching: sequential, static, continuous",
		Summary: "Send a stream of requests to a modelled GPU and watch how each batching policy queues, " +
			"groups and finishes them; then sweep the request rate to find where latency breaks.",
		Lesson:         "batching",
		Prediction:     "What p95 TTFT (ms) do you expect?",
		PredictionUnit: "ms",
		PredictionStat: statTTFTP95,
		// The lesson asks for the throughput too.
		Second: labs.SecondPrediction{Prediction: "And what output throughput (tok/s)?", Unit: "tok/s", Stat: statThroughput},
	}
}

// run executes one live run or sweep with settings s. run returns an
// error only for failures on the server's side, and ctx.Err() when ctx
// ends: then the run's requests are aborted, its dedicated engine is closed
// and no final frame is emitted.
func (l *Lab) run(ctx context.Context, s settings, emit func(labs.Frame)) error {
	if s.live {
		return l.runLive(ctx, s, emit)
	}
	return l.runSweep(ctx, s, emit)
}
