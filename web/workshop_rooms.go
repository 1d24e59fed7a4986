package web

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
)

// topic fans "something changed" out to subscribers, the shape of WTF
// Dial's pub/sub. Each subscriber's channel holds one pending signal, so
// publishing never blocks and changes that arrive while a subscriber is
// busy writing coalesce into one update. A subscriber whose connection
// stalls is dropped by its own stream (a write deadline), never by the
// publisher waiting on it.
type topic struct {
	mu   sync.Mutex
	subs map[chan struct{}]string // channel → subscriber key (a learner id)
}

func (t *topic) subscribe(key string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	t.mu.Lock()
	if t.subs == nil {
		t.subs = map[chan struct{}]string{}
	}
	t.subs[ch] = key
	t.mu.Unlock()
	return ch, func() {
		t.mu.Lock()
		delete(t.subs, ch)
		t.mu.Unlock()
	}
}

// publish wakes every subscriber, or only those with key when key != "".
func (t *topic) publish(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for ch, k := range t.subs {
		if key != "" && k != key {
			continue
		}
		select {
		case ch <- struct{}{}:
		default: // one signal is already waiting: this change rides along
		}
	}
}

// online counts subscribers per key.
func (t *topic) online() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]int, len(t.subs))
	for _, k := range t.subs {
		out[k]++
	}
	return out
}

// room is one workshop in memory: its state as last stored, its streams
// and, once started, its engines.
type room struct {
	code     string
	learners topic // learners' pages
	board    topic // boards

	mu      sync.Mutex
	ws      store.Workshop
	engines *labs.Room
	notes   map[string]string // learner id → note on their last run
	runAll  int               // times the instructor had everyone run; not kept across restarts
	cache   *boardCache
	version int // counts changes, so a board built before one is not cached after it

	// stage is the pushed lab drawn once per round for every learner's
	// stream; stageMu makes the first stream of a round draw it while the
	// others wait for it.
	stageMu sync.Mutex
	stage   *sharedStage
}

// sharedStage is one round's stage, as HTML and the signals that set it.
type sharedStage struct {
	round   int64
	html    string
	signals string // "" when nothing is pushed
}

func (r *room) workshop() store.Workshop {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ws
}

// setWorkshop stores the new state and tells every page.
func (r *room) setWorkshop(ws store.Workshop) {
	r.mu.Lock()
	r.ws = ws
	r.cache = nil
	r.version++
	r.mu.Unlock()
	r.learners.publish("")
	r.board.publish("")
}

// changed tells the boards (and, when revealed, the learners) that runs or
// members changed.
func (r *room) changed() {
	r.mu.Lock()
	r.cache = nil
	r.version++
	revealed := r.ws.Revealed
	r.mu.Unlock()
	r.board.publish("")
	if revealed {
		r.learners.publish("")
	}
}

func (r *room) note(learner string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.notes[learner]
}

// rooms holds the workshops in memory, loaded from the store on first use.
type rooms struct {
	s *Server

	mu     sync.Mutex
	byCode map[string]*room
	closed bool
}

func newRooms(s *Server) *rooms { return &rooms{s: s, byCode: map[string]*room{}} }

// get returns the room for code, loading it from the store; an unknown
// code is a 404 in the learner's words.
func (rs *rooms) get(ctx context.Context, code string) (*room, error) {
	rs.mu.Lock()
	r, ok := rs.byCode[code]
	rs.mu.Unlock()
	if ok {
		return r, nil
	}
	if !validCode(code) {
		return nil, noWorkshop()
	}
	ws, err := rs.s.store.GetWorkshop(ctx, code)
	if errors.Is(err, store.ErrWorkshopNotFound) {
		return nil, noWorkshop()
	}
	if err != nil {
		return nil, fmt.Errorf("workshop %s: %w", code, err)
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r, ok := rs.byCode[code]; ok { // loaded meanwhile by another request
		return r, nil
	}
	r = &room{code: code, ws: ws, notes: map[string]string{}}
	rs.byCode[code] = r
	return r, nil
}

// engines starts the room's engines on first use, with the load dial where
// the store left it (so a restart resumes the load).
func (rs *rooms) engines(r *room) (*labs.Room, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.engines != nil {
		return r.engines, nil
	}
	rs.mu.Lock()
	closed := rs.closed
	rs.mu.Unlock()
	if closed {
		return nil, labs.ErrEnginesClosed
	}
	h := fnv.New64a()
	h.Write([]byte(r.code))
	eng, err := labs.NewRoom(labs.RoomConfig{Profile: rs.s.roomProfile(), Seed: h.Sum64(),
		Observer: rs.s.cfg.RoomObserver})
	if err != nil {
		return nil, fmt.Errorf("workshop %s: %w", r.code, err)
	}
	if !r.ws.Ended() {
		eng.SetLoad(r.ws.LoadRPS)
	}
	r.engines = eng
	return eng, nil
}

// startedEngines is the room's engines if they run, else nil.
func (r *room) startedEngines() *labs.Room {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.engines
}

// retireEngines stops a finished room's engines once any run still on
// them has had time to end (new runs no longer use them).
func (rs *rooms) retireEngines(r *room, after time.Duration) {
	time.AfterFunc(after, func() {
		r.mu.Lock()
		eng := r.engines
		if r.ws.Ended() {
			r.engines = nil
		} else {
			eng = nil
		}
		r.mu.Unlock()
		if eng != nil {
			_ = eng.Close()
		}
	})
}

// close stops every room's engines; the server is shutting down.
func (rs *rooms) close() {
	rs.mu.Lock()
	rs.closed = true
	all := make([]*room, 0, len(rs.byCode))
	for _, r := range rs.byCode {
		all = append(all, r)
	}
	rs.mu.Unlock()
	for _, r := range all {
		if e := r.startedEngines(); e != nil {
			_ = e.Close()
		}
	}
}

// roomProfile is the engine a room's load dial drives: the server's
// default profile.
func (s *Server) roomProfile() labs.Profile {
	p := labs.Profile{Hardware: s.cfg.Hardware, Model: s.cfg.Model}
	if p.Hardware == "" || p.Model == "" {
		p = labs.Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}
	}
	return p
}
