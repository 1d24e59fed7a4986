package labs

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
)

// RoomConfig shapes a Room. Zero fields take the defaults listed.
type RoomConfig struct {
	// Profile is the room's main engine: the one the load dial loads and
	// the load panel shows. Required.
	Profile Profile
	// Clock paces the room's engines, its arrivals and its samples; nil
	// means the wall clock.
	Clock clock.Clock
	// Seed makes the synthetic arrivals and prompts repeatable.
	Seed uint64
	// MaxInFlight caps synthetic requests at once, so a dial turned far
	// past what the engine serves cannot grow memory without bound;
	// default 256.
	MaxInFlight int
	// PromptTokens and OutputTokens size each synthetic request; defaults
	// 512 and 128, a chat turn with some context.
	PromptTokens, OutputTokens int
	// SampleEvery is the load panel's resolution; default 1 s. History
	// keeps the last HistoryLen samples; default 120.
	SampleEvery time.Duration
	HistoryLen  int
	// Tune adjusts each engine's configuration (tests shrink the KV cache).
	Tune func(*engine.Config)
	// Observer, when set, also observes each engine's finished requests
	// (the server's /metrics), beside the room's own load panel.
	Observer func(Profile) live.Observer
}

func (c RoomConfig) withDefaults() RoomConfig {
	if c.Clock == nil {
		c.Clock = clock.Wall{}
	}
	if c.MaxInFlight == 0 {
		c.MaxInFlight = 256
	}
	if c.PromptTokens == 0 {
		c.PromptTokens = 512
	}
	if c.OutputTokens == 0 {
		c.OutputTokens = 128
	}
	if c.SampleEvery == 0 {
		c.SampleEvery = time.Second
	}
	if c.HistoryLen == 0 {
		c.HistoryLen = 120
	}
	return c
}

// SourceSynthetic labels the load dial's requests on a room's engines.
const SourceSynthetic = "synthetic"

// LoadSample is the room's main engine at one moment, with the time to
// first token of requests that finished since the previous sample.
type LoadSample struct {
	At       time.Time
	Running  int     // sequences in the running batch
	Waiting  int     // requests queued
	KVUsage  float64 // fraction of KV cache blocks in use
	TTFTp50  float64 // ms, learners' requests; 0 when none finished
	TTFTp95  float64
	Finished int // learners' requests in the sample
	Tenants  int // synthetic requests in flight
}

// Room is a workshop's own engines (one per profile, in Pool) with a load
// dial of synthetic other-tenant requests on its main engine, and the
// samples the instructor's load panel draws. Close stops everything.
type Room struct {
	cfg  RoomConfig
	Pool *Engines

	mu       sync.Mutex
	rps      float64
	inFlight int
	ttfts    []float64 // learners' TTFTs (ms) since the last sample
	history  []LoadSample
	seq      int

	wake chan struct{}
	stop chan struct{}
	done sync.WaitGroup
	once sync.Once
}

// NewRoom starts a room's engine pool, main engine and sampler.
func NewRoom(cfg RoomConfig) (*Room, error) {
	cfg = cfg.withDefaults()
	if _, err := cfg.Profile.Config(); err != nil {
		return nil, fmt.Errorf("room: %w", err)
	}
	r := &Room{cfg: cfg, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	r.Pool = NewEngines(EnginesConfig{Clock: cfg.Clock, Tune: cfg.Tune, Source: "workshop",
		Observer: func(p Profile) live.Observer {
			// The load panel is the main engine's: a learner's time to
			// first token on another engine of the pool is not its.
			var own, extra live.Observer
			if p.normal() == cfg.Profile.normal() {
				own = roomObserver{r}
			}
			if cfg.Observer != nil {
				extra = cfg.Observer(p)
			}
			switch {
			case own == nil:
				return extra
			case extra == nil:
				return own
			}
			return bothObservers{own, extra}
		}})
	if _, err := r.Pool.Get(cfg.Profile); err != nil {
		return nil, fmt.Errorf("room: %w", err)
	}
	r.done.Add(2)
	go r.arrivals()
	go r.sampler()
	return r, nil
}

// SetLoad sets the dial: synthetic requests per second (0 stops them).
func (r *Room) SetLoad(rps float64) {
	r.mu.Lock()
	r.rps = max(rps, 0)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Load is the dial's setting.
func (r *Room) Load() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rps
}

// History returns the load panel's samples, oldest first.
func (r *Room) History() []LoadSample {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.history)
}

// Close stops the arrivals, the sampler and the engines.
func (r *Room) Close() error {
	r.once.Do(func() { close(r.stop) })
	r.done.Wait()
	return r.Pool.Close()
}

// BatchTracker follows one learner's run on a room's engines: the engine
// of each of the run's requests tells it which batches that request
// shared (live.WithWatcher), so the figure is the one the run's own result
// states, from whichever engine of the pool the run used.
type BatchTracker struct {
	mu       sync.Mutex
	maxBatch int
}

// Track starts following a run: run it with the returned context, which
// also puts it on the room's engines (WithEngines). Call Done when it
// ends.
func (r *Room) Track(ctx context.Context) (context.Context, *BatchTracker) {
	t := &BatchTracker{}
	return WithEngines(live.WithWatcher(ctx, t), r.Pool), t
}

// RequestFinished notes the busiest batch of one of the run's requests.
func (t *BatchTracker) RequestFinished(st live.RequestStats) {
	t.mu.Lock()
	t.maxBatch = max(t.maxBatch, st.Sharing.MaxBatch)
	t.mu.Unlock()
}

// Done returns how many other sequences shared the busiest batch any of
// the run's requests was in, the run's own other requests included: the
// "up to N" its result states. A request still being aborted when Done is
// called (a timed-out call, say) is not counted.
func (t *BatchTracker) Done() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return max(t.maxBatch-1, 0)
}

type roomObserver struct{ r *Room }

// bothObservers tells two observers of every finished request.
type bothObservers [2]live.Observer

// RequestFinished passes st to both.
func (b bothObservers) RequestFinished(st live.RequestStats) {
	b[0].RequestFinished(st)
	b[1].RequestFinished(st)
}

// RequestFinished keeps the learners' times to first token for the next
// sample; the synthetic tenants' are not the room's.
func (o roomObserver) RequestFinished(st live.RequestStats) {
	if st.Source == SourceSynthetic || st.Timing.FirstToken == 0 {
		return
	}
	ms := float64(st.Timing.FirstToken-st.Timing.Arrival) / float64(time.Millisecond)
	o.r.mu.Lock()
	o.r.ttfts = append(o.r.ttfts, ms)
	o.r.mu.Unlock()
}

// sampler records a LoadSample every SampleEvery.
func (r *Room) sampler() {
	defer r.done.Done()
	for {
		select {
		case <-r.stop:
			return
		case <-r.cfg.Clock.After(r.cfg.SampleEvery):
		}
		r.sample(r.cfg.Clock.Now())
	}
}

func (r *Room) sample(now time.Time) {
	le, err := r.Pool.Get(r.cfg.Profile)
	if err != nil {
		return
	}
	st := le.Stats()
	r.mu.Lock()
	defer r.mu.Unlock()
	s := LoadSample{At: now, Running: st.Running, Waiting: st.Waiting, KVUsage: st.KVUsage, Finished: len(r.ttfts), Tenants: r.inFlight}
	if len(r.ttfts) > 0 {
		slices.Sort(r.ttfts)
		s.TTFTp50, s.TTFTp95 = Percentile(r.ttfts, 50), Percentile(r.ttfts, 95)
		r.ttfts = r.ttfts[:0]
	}
	r.history = append(r.history, s)
	if over := len(r.history) - r.cfg.HistoryLen; over > 0 {
		r.history = slices.Delete(r.history, 0, over)
	}
}

// Percentile is the nearest-rank p-th percentile of sorted values.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p/100*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
