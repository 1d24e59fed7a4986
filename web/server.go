package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/store"
)

// Server is the Latency Lab web app. Create it with New, serve with Run (or
// Serve on a listener of your own), and it closes its store on the way out.
type Server struct {
	cfg     Config
	echo    *echo.Echo
	store   *store.Store
	assets  *assets
	limiter *learnerLimiter
	slots   *runSlots

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
	s := &Server{
		cfg:     cfg,
		store:   st,
		assets:  as,
		limiter: newLearnerLimiter(cfg.RatePerSecond, cfg.RateBurst),
		slots:   newRunSlots(cfg.MaxRuns),
	}
	s.stopCtx, s.stop = context.WithCancel(context.Background())
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	s.echo = e
	s.routes()
	return s, nil
}

// Handler is the server's http.Handler, for tests and embedding.
func (s *Server) Handler() http.Handler { return s.echo }

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
	hs := &http.Server{
		Handler:           s.echo,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          nil,
	}
	url := "http://" + ln.Addr().String()
	s.cfg.Logger.Info("serving", "url", url, "db", s.cfg.DBPath, "labs", len(s.cfg.Catalog.All()))
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
		err = s.store.Close()
	})
	return err
}
