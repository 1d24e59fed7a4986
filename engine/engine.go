package engine

import (
	"fmt"
	"time"
)

// Engine is one simulated inference server. It is not safe for concurrent
// use: one goroutine (Simulate, or engine/live's runner) drives it.
type Engine struct {
	cfg    Config
	fp     Footprint
	cost   CostModel
	blocks *blockManager

	now     time.Duration
	serial  uint64
	running []*sequence
	waiting seqQueue
	byID    map[string]*sequence
	aborts  []*sequence

	sched []*sequence // scheduled this step, in batch order
	// roundLeft counts the decode steps left in a multi-step round; the
	// scheduler admits nothing new until it reaches zero.
	roundLeft int
	res       StepResult
	stats     Stats
}

// New builds an engine for a config, validating it first.
func New(cfg Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	fp, err := cfg.Footprint()
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	cost := cfg.Cost
	if cost == nil {
		r, err := NewRoofline(cfg)
		if err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		cost = r
	}
	if cfg.Policy == Sequential {
		cfg.BatchSize, cfg.BatchWait = 1, 0
	}
	return &Engine{
		cfg:    cfg,
		fp:     fp,
		cost:   cost,
		blocks: newBlockManager(fp.NumBlocks),
		byID:   make(map[string]*sequence),
		stats:  Stats{NumBlocks: fp.NumBlocks},
	}, nil
}

// Config returns the engine's configuration.
func (e *Engine) Config() Config { return e.cfg }

// Footprint returns the engine's derived memory figures.
func (e *Engine) Footprint() Footprint { return e.fp }

// Now is the engine clock: the end of the last step, or later if advanced.
func (e *Engine) Now() time.Duration { return e.now }

// AdvanceTo moves an idle engine's clock forward to t; earlier t is ignored.
func (e *Engine) AdvanceTo(t time.Duration) {
	if t > e.now {
		e.now = t
	}
}

// ValidateRequest checks a request without adding it. It reads only
// immutable configuration, so it is safe to call from any goroutine.
func (e *Engine) ValidateRequest(r *Request) error {
	return e.cfg.validateRequest(r, e.fp.NumBlocks)
}

// Add queues a request (FCFS). Its Arrival must not be after Now. The
// request's OutputTokens are retained and must not be modified afterwards;
// its PromptTokens are not kept.
func (e *Engine) Add(r Request) error {
	if err := e.ValidateRequest(&r); err != nil {
		return err
	}
	if r.Arrival > e.now {
		return fmt.Errorf("request %s: arrival %v is after engine time %v", r.ID, r.Arrival, e.now)
	}
	if _, dup := e.byID[r.ID]; dup {
		return fmt.Errorf("request %s: duplicate id", r.ID)
	}
	s := &sequence{
		req:             r,
		serial:          e.serial,
		target:          r.targetOutput(e.cfg.Model.MaxContextLen),
		numPromptTokens: len(r.PromptTokens),
		timing:          Timing{Arrival: r.Arrival},
	}
	s.blockTable = make([]int32, 0, (s.numPromptTokens+s.target+BlockSize-1)/BlockSize)
	if e.cfg.PrefixCaching {
		s.blockHashes = hashBlocks(r.PromptTokens)
	}
	// Only the count and the block hashes are needed from here on; letting
	// the ids go keeps a long queue of waiting prompts small.
	s.req.PromptTokens = nil
	e.serial++
	e.byID[r.ID] = s
	e.waiting.pushBack(s)
	return nil
}

// Serial is the admission number the next successful Add assigns; events
// carry it so drivers can index results without a map.
func (e *Engine) Serial() uint64 { return e.serial }

// Abort ends a request at the start of the next step, freeing its blocks.
// It reports whether the request was found.
func (e *Engine) Abort(id string) bool {
	s, ok := e.byID[id]
	if !ok || s.aborted {
		return false
	}
	s.aborted = true
	e.aborts = append(e.aborts, s)
	return true
}

// HasWork reports whether any request is queued, running or being aborted.
func (e *Engine) HasWork() bool {
	return len(e.running) > 0 || e.waiting.len() > 0 || len(e.aborts) > 0
}

// NextStepAt is the earliest engine time a step can do work: Now while
// anything is runnable, later while the static policy waits for its batch
// to fill. ok is false when the engine is idle.
func (e *Engine) NextStepAt() (t time.Duration, ok bool) {
	if len(e.running) > 0 || len(e.aborts) > 0 {
		return e.now, true
	}
	if e.waiting.len() == 0 {
		return 0, false
	}
	if e.cfg.Policy == Continuous || e.waiting.len() >= e.cfg.BatchSize {
		return e.now, true
	}
	return max(e.now, e.waiting.at(0).timing.Arrival+e.cfg.BatchWait), true
}

// Stats returns the current gauges and counters.
func (e *Engine) Stats() Stats {
	st := e.stats
	st.Now = e.now
	st.Running = len(e.running)
	st.Waiting = e.waiting.len()
	st.KVUsage = e.blocks.usage()
	return st
}

// removeRunning deletes s from the running list, keeping order.
func (e *Engine) removeRunning(s *sequence) bool {
	for i, r := range e.running {
		if r == s {
			copy(e.running[i:], e.running[i+1:])
			e.running[len(e.running)-1] = nil
			e.running = e.running[:len(e.running)-1]
			return true
		}
	}
	return false
}
