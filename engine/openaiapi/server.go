package openaiapi

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// Engine is what the API consumes from a running engine; *live.Engine
// satisfies it.
type Engine interface {
	Submit(ctx context.Context, req engine.Request) (<-chan live.Event, error)
	Stats() engine.Stats
	Config() engine.Config
}

// Config shapes the handler.
type Config struct {
	Engine Engine
	// ModelName is the served model id clients must name (or omit).
	ModelName string
	// Text tokenizes prompts and composes answers; nil means the shared
	// textmodel.
	Text *textmodel.Model
	// MaxBodyBytes caps a request body (413 beyond); 0 means 4 MiB.
	MaxBodyBytes int64
	// MaxWaiting is the queue depth beyond which new requests get 429;
	// 0 means 4096.
	MaxWaiting int
	// Clock stamps "created"; nil means the wall clock.
	Clock clock.Clock
	// Moderation, when set, runs every answer through this stage: the
	// prompt is checked before generation and the answer is released only
	// as the stage's policy allows. A blocked answer ends with
	// finish_reason "content_filter" and the stage's replacement texts never
	// go over the wire. nil (the default, and what benchmarks want) serves
	// answers unmoderated.
	Moderation *moderation.Stage

	// APIKey, when set, is the bearer token every /v1 request must carry
	// (Authorization: Bearer KEY); a missing or wrong one gets 401. Empty
	// (the default) leaves /v1 open to whoever can reach the port.
	APIKey string
	// AllowedOrigins are the browser origins (scheme://host[:port]) whose
	// pages may call /v1, besides the server's own; any other page gets
	// 403, so a site a learner visits cannot spend the engines.
	AllowedOrigins []string
	// MaxConcurrent caps the completions /v1 serves at once; one beyond
	// it gets 429 with Retry-After. 0 means DefaultMaxConcurrent.
	MaxConcurrent int
}

// DefaultMaxConcurrent is the /v1 concurrency cap when Config leaves it 0:
// enough for a class's load tests (1,000 concurrent streams), few enough
// that a flood cannot take every goroutine and socket the labs need.
const DefaultMaxConcurrent = 1024

// Validate reports a missing engine or model name.
func (c Config) Validate() error {
	if c.Engine == nil {
		return errors.New("openaiapi: config has no engine")
	}
	if c.ModelName == "" {
		return errors.New("openaiapi: config has no model name")
	}
	if c.MaxBodyBytes < 0 || c.MaxWaiting < 0 || c.MaxConcurrent < 0 {
		return errors.New("openaiapi: negative limits")
	}
	if _, err := parseOrigins(c.AllowedOrigins); err != nil {
		return fmt.Errorf("openaiapi: %w", err)
	}
	if m := c.Moderation; m != nil {
		if m.Checker == nil {
			return errors.New("openaiapi: moderation stage has no checker")
		}
		if err := m.Filter.Validate(); err != nil {
			return fmt.Errorf("openaiapi: %w", err)
		}
	}
	return nil
}

// Server is the HTTP surface. Create it with New.
type Server struct {
	cfg  Config
	text *textmodel.Model
	mux  *http.ServeMux
	gate *gate
}

// New returns the handler serving /v1/chat/completions, /v1/completions and
// /v1/models at those absolute paths, so the web app can route /v1/ to it
// unchanged.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 4 << 20
	}
	if cfg.MaxWaiting == 0 {
		cfg.MaxWaiting = 4096
	}
	if cfg.MaxConcurrent == 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	cfg.Clock = clock.Or(cfg.Clock)
	if cfg.Moderation != nil {
		// A copy, so the caller changing its stage later cannot change
		// requests in flight.
		st := *cfg.Moderation
		cfg.Moderation = &st
	}
	g, err := newGate(cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, text: cfg.Text, mux: http.NewServeMux(), gate: g}
	if s.text == nil {
		s.text = textmodel.Default()
	}
	s.mux.Handle("/v1/chat/completions", g.guard(s.post(s.chat)))
	s.mux.Handle("/v1/completions", g.guard(s.post(s.completion)))
	s.mux.Handle("/v1/models", g.guard(s.get(s.models)))
	s.mux.Handle("/v1/", g.guard(http.HandlerFunc(notFound)))
	s.mux.HandleFunc("/", notFound)
	return s, nil
}

// notFound names the routes this server has.
func notFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, &APIError{Status: http.StatusNotFound, Type: "invalid_request_error", Code: "not_found",
		Message: fmt.Sprintf("no route for %s %s: this server has POST /v1/chat/completions, POST /v1/completions and GET /v1/models", r.Method, r.URL.Path)})
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

type handlerFunc func(http.ResponseWriter, *http.Request) error

func (s *Server) post(h handlerFunc) http.HandlerFunc { return s.method(http.MethodPost, h) }
func (s *Server) get(h handlerFunc) http.HandlerFunc  { return s.method(http.MethodGet, h) }

// method enforces the verb, caps the body and maps returned errors to
// OpenAI error responses (before a stream has started).
func (s *Server) method(verb string, h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != verb {
			w.Header().Set("Allow", verb)
			writeError(w, &APIError{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error", Code: "method_not_allowed",
				Message: fmt.Sprintf("method %s is not allowed on %s: use %s", r.Method, r.URL.Path, verb)})
			return
		}
		if verb == http.MethodPost {
			if err := requireJSON(r); err != nil {
				writeError(w, err)
				return
			}
			// The slot is held for the whole request, body included, so a
			// flood of slow bodies is capped as well as a flood of streams.
			release, err := s.gate.acquire()
			if err != nil {
				writeError(w, err)
				return
			}
			defer release()
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		if err := h(w, r); err != nil {
			writeError(w, err)
		}
	}
}

// checkModel accepts the served model name or an omitted one.
func (s *Server) checkModel(name string) error {
	if name == "" || name == s.cfg.ModelName {
		return nil
	}
	return &APIError{Status: http.StatusNotFound, Type: "invalid_request_error", Param: "model", Code: "model_not_found",
		Message: fmt.Sprintf("The model `%s` does not exist. This server serves `%s`.", name, s.cfg.ModelName)}
}

// randomSeed draws a sampling seed for requests that bring none.
func randomSeed() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return int64(binary.LittleEndian.Uint64(b[:]) >> 1)
}

// newID returns a random request id with the given prefix.
func newID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
