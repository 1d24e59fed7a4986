package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/store"
)

// Server is the Latency Lab web app. Create it with New, serve with Run (or
// Serve on a listener of your own), and it closes its store on the way out.
type Server struct {
	cfg     Config
	echo    *echo.Echo
	handler http.Handler // echo, answering HEAD as GET
	store   *store.Store
	assets  *assets
	// learnerRate and addrRate bound POSTs per learner cookie and per
	// client address; runs caps concurrent runs per learner, per address
	// and in total.
	learnerRate *keyedLimiter
	addrRate    *keyedLimiter
	runs        *runLimiter
	labRuns     *runningWork // learner/lab → runs a Stop may cancel
	proxies     proxies
	origins     atomic.Pointer[originPolicy]

	// workshops are the rooms in memory; joinFails bounds wrong join
	// codes per client address.
	workshops *rooms
	joinFails *keyedLimiter

	grader *grader // nil without a grading server

	// fidelity is the engine's error on its public reference set.
	fidelity *fidelityTable

	// stopCtx ends when shutdown begins, so running streams can send a last
	// event before the HTTP server waits for them.
	stopCtx   context.Context
	stop      context.CancelFunc
	closeOnce sync.Once
}

// New validates cfg, opens the store (applying migrations) and builds the
// routes.
func New(cfg Config) (*Server, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	as, err := loadAssets()
	if err != nil {
		return nil, err
	}
	st, err := store.Open(context.Background(), cfg.DBPath)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	if n := st.InterruptedOnOpen(); n > 0 {
		// The operator should know a crash cut answers off: learners will
		// find them marked "Cut off" in their chat history.
		cfg.Logger.Warn("answers cut off by the last shutdown marked interrupted", "answers", n)
	}
	lim := cfg.Limits
	prox, _ := parseProxies(lim.TrustedProxies) // Validate has checked them
	origins, err := newOriginPolicy(cfg.Addr, lim.AllowedOrigins)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("web: %w", err)
	}
	s := &Server{
		cfg:         cfg,
		store:       st,
		assets:      as,
		learnerRate: newKeyedLimiter(cfg.RatePerSecond, cfg.RateBurst),
		addrRate:    newKeyedLimiter(lim.AddrRatePerSecond, lim.AddrRateBurst),
		runs:        newRunLimiter(cfg.MaxRuns, lim.MaxRunsPerAddr, lim.MaxRunsTotal, cfg.Clock),
		labRuns:     newRunningWork(cfg.Clock),
		proxies:     prox,
		grader:      newGrader(cfg.Grader),
		fidelity:    newFidelityTable(),
	}
	s.origins.Store(origins)
	s.workshops, s.joinFails = newRooms(s), newKeyedLimiter(cfg.Workshops.JoinFailRate, cfg.Workshops.JoinFailBurst)
	s.stopCtx, s.stop = context.WithCancel(context.Background())
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = prox.ipExtractor()
	s.echo = e
	s.handler = headAsGet(e)
	s.routes()
	return s, nil
}

// Handler is the server's http.Handler, for tests and embedding.
func (s *Server) Handler() http.Handler { return s.handler }

// Run listens on the configured address and serves until ctx is done, then
// shuts down gracefully.
func (s *Server) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		s.Close()
		return fmt.Errorf("listen %s: %w", s.cfg.Addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx is done. Shutdown tells running streams to
// finish with a "server shutting down" event, waits up to ShutdownGrace for
// them, and closes the store.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	defer s.Close()
	s.fidelity.start()
	lim := s.cfg.Limits
	// ReadTimeout covers headers and body, so a body trickled in a byte at
	// a time is cut; WriteTimeout bounds pages. Streams extend both for
	// themselves once their body has arrived (extendDeadlinesAfterBody).
	hs := &http.Server{
		Handler:      s.handler,
		ReadTimeout:  lim.ReadTimeout,
		WriteTimeout: lim.WriteTimeout,
		IdleTimeout:  lim.IdleTimeout,
	}
	if _, port, _ := net.SplitHostPort(s.cfg.Addr); port == "0" && len(lim.AllowedOrigins) == 0 {
		// Now the port is known, only this server's own origins are allowed.
		p, err := newOriginPolicy(ln.Addr().String(), nil)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		s.origins.Store(p)
	}
	url := "http://" + ln.Addr().String()
	s.cfg.Logger.Info("serving", "url", url, "db", s.cfg.DBPath, "labs", len(s.cfg.Catalog.All()),
		"allowed_origins", strings.Join(s.origins.Load().list(), " "), "max_runs_total", lim.MaxRunsTotal,
		"max_runs_per_addr", lim.MaxRunsPerAddr, "trusted_proxies", len(s.proxies))
	if s.cfg.Ready != nil {
		s.cfg.Ready(url)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.cfg.Logger.Info("shutting down")
	s.beginShutdown()
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace)
	defer cancel()
	err := hs.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

func (s *Server) beginShutdown() { s.stop() }

// Close releases the store; Serve calls it, so only call it when a Server
// from New is never served.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.beginShutdown()
		s.workshops.close()
		err = s.store.Close()
	})
	return err
}
