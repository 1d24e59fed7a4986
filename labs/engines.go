package labs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
)

// Profile names one engine deployment: a model on a GPU type at a weight
// precision and tensor-parallel degree. It is the key of the Engines pool.
type Profile struct {
	Hardware  string           // e.g. "h100-sxm" (engine.HardwareNames)
	Model     string           // e.g. "llama-3.1-8b" (engine.ModelNames)
	Precision engine.Precision // "" means BF16
	TP        int              // 0 means 1
}

// normal fills the zero-value defaults so equal deployments are equal keys.
func (p Profile) normal() Profile {
	if p.Precision == "" {
		p.Precision = engine.BF16
	}
	if p.TP == 0 {
		p.TP = 1
	}
	return p
}

// String is a short label such as "llama-3.1-8b on h100-sxm (bf16)".
func (p Profile) String() string {
	p = p.normal()
	s := fmt.Sprintf("%s on %s (%s", p.Model, p.Hardware, p.Precision)
	if p.TP > 1 {
		s += fmt.Sprintf(", tp %d", p.TP)
	}
	return s + ")"
}

// Config is the engine configuration for the profile: the engine's serving
// defaults with this hardware, model, precision and TP. It fails with the
// engine's message (e.g. "does not fit") when the deployment is impossible.
func (p Profile) Config() (engine.Config, error) {
	p = p.normal()
	cfg := engine.DefaultConfig()
	hw, err := engine.LookupHardware(p.Hardware)
	if err != nil {
		return engine.Config{}, fmt.Errorf("profile: %w", err)
	}
	m, err := engine.LookupModel(p.Model)
	if err != nil {
		return engine.Config{}, fmt.Errorf("profile: %w", err)
	}
	cfg.Hardware, cfg.Model, cfg.Precision, cfg.TP = hw, m, p.Precision, p.TP
	if err := cfg.Validate(); err != nil {
		return engine.Config{}, fmt.Errorf("profile %s: %w", p, err)
	}
	return cfg, nil
}

// EnginesConfig shapes an Engines pool.
type EnginesConfig struct {
	// Clock paces every engine in the pool and times the runs of the labs
	// on it (see Clock); nil means the wall clock. Tests run in a synctest
	// bubble, or pass a fake clock where a bubble cannot hold them.
	Clock clock.Clock
	// Tune, when set, adjusts each engine's configuration before it starts
	// (a smaller KV cache in tests, a what-if setting). It must not change
	// the profile's identity fields.
	Tune func(*engine.Config)
	// Observer, when set, builds the observer of each engine the pool
	// starts, so serving metrics see every request that finishes on it.
	Observer func(Profile) live.Observer
	// Source labels the pool's requests whose context names none (see
	// live.WithSource); "" means "lab". The /v1 surface labels its own.
	Source string
	// Pin, when set, is the one deployment every profile gets: a pool
	// that stands for one real server (or the bundled engine modelling
	// it) ignores the model and GPU a learner picked. Tune still applies.
	Pin *engine.Config
	// Remote, when set, serves the pool's requests on a real server (see
	// live.Config.Remote); use it with Pin, the server's deployment.
	Remote func(ctx context.Context, req engine.Request, start time.Time) (<-chan live.Event, error)
}

// ErrEnginesClosed is returned by Get after Close.
var ErrEnginesClosed = errors.New("engine pool closed")

// Engines is the pool of shared live engines that every wall-clock lab runs
// its requests on, one engine per Profile, started lazily on first use and
// kept until Close. Sharing is the point: several learners who pick the same
// profile submit to the same engine, so their requests batch together and
// queue behind each other, and that load shows up in everyone's time to
// first token exactly as it would on a shared GPU server. Engines is safe
// for concurrent use.
type Engines struct {
	cfg EnginesConfig

	mu     sync.Mutex
	byProf map[Profile]*live.Engine
	closed bool
}

// Clock is the pool's clock. A lab times its requests at the handler on it,
// so the handler and the engines it waits on always share one clock.
func (e *Engines) Clock() clock.Clock { return clock.Or(e.cfg.Clock) }

// NewEngines returns an empty pool.
func NewEngines(cfg EnginesConfig) *Engines {
	return &Engines{cfg: cfg, byProf: make(map[Profile]*live.Engine)}
}

// Get returns the shared engine for p, starting it on first use. It fails
// when the profile is unknown or the model does not fit, and after Close.
func (e *Engines) Get(p Profile) (*live.Engine, error) {
	p = p.normal()
	if e.cfg.Pin != nil {
		p = Profile{Hardware: e.cfg.Pin.Hardware.Name, Model: e.cfg.Pin.Model.Name, Precision: e.cfg.Pin.Precision, TP: e.cfg.Pin.TP}.normal()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrEnginesClosed
	}
	if le, ok := e.byProf[p]; ok {
		return le, nil
	}
	// Starting an engine only builds its tables and one goroutine, so it
	// is done under the lock: concurrent first users must get one engine.
	cfg, err := e.config(p)
	if err != nil {
		return nil, err
	}
	if e.cfg.Tune != nil {
		e.cfg.Tune(&cfg)
	}
	lc := live.Config{Engine: cfg, Clock: e.cfg.Clock, Source: e.cfg.Source, Remote: e.cfg.Remote}
	if lc.Source == "" {
		lc.Source = "lab"
	}
	if e.cfg.Observer != nil {
		lc.Observer = e.cfg.Observer(p)
	}
	le, err := live.New(lc)
	if err != nil {
		return nil, fmt.Errorf("engines: start %s: %w", p, err)
	}
	e.byProf[p] = le
	return le, nil
}

// config is p's engine configuration, or the pinned deployment.
func (e *Engines) config(p Profile) (engine.Config, error) {
	if e.cfg.Pin != nil {
		return *e.cfg.Pin, nil
	}
	return p.Config()
}

// Each calls fn for every engine started so far (a snapshot, taken under
// the lock, so fn may call back into the pool).
func (e *Engines) Each(fn func(Profile, *live.Engine)) {
	e.mu.Lock()
	type started struct {
		p  Profile
		le *live.Engine
	}
	all := make([]started, 0, len(e.byProf))
	for p, le := range e.byProf {
		all = append(all, started{p, le})
	}
	e.mu.Unlock()
	for _, s := range all {
		fn(s.p, s.le)
	}
}

// Len is the number of engines started so far.
func (e *Engines) Len() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.byProf)
}

// Close stops every engine; requests still running end with
// live.ErrClosed. Later calls to Get fail; Close is idempotent.
func (e *Engines) Close() error {
	e.mu.Lock()
	all := make([]*live.Engine, 0, len(e.byProf))
	for _, le := range e.byProf {
		all = append(all, le)
	}
	e.byProf = make(map[Profile]*live.Engine)
	e.closed = true
	e.mu.Unlock()
	var errs []error
	for _, le := range all {
		if err := le.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

type poolKey struct{}

// WithEngines makes labs that run with ctx submit to pool instead of their
// own: a workshop's learners share their room's engines, so the room's load
// is load on the engine they measure.
func WithEngines(ctx context.Context, pool *Engines) context.Context {
	return context.WithValue(ctx, poolKey{}, pool)
}

// For is the pool a run with ctx uses: the one WithEngines put in ctx, else
// e.
func (e *Engines) For(ctx context.Context) *Engines {
	if p, ok := ctx.Value(poolKey{}).(*Engines); ok && p != nil {
		return p
	}
	return e
}
