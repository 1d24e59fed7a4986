package web

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes lists every route in one place. Pages get the learner cookie,
// body limit, origin check for POSTs, the per-address and per-learner rate
// limits, and (for POSTs that save) a required cookie; /v1 and /metrics
// get only the common middleware. HEAD is answered on every GET route by
// headAsGet, around echo.
func (s *Server) routes() {
	e := s.echo
	e.Use(withRequestID, s.accessLog, s.recoverPanics, securityHeaders, s.extendDeadlinesAfterBody)

	gz := middleware.GzipWithConfig(middleware.GzipConfig{Level: 5})
	// run is the chain of a lab run, which a browser without the cookie
	// may start (held to its address's limits) but which is then not saved.
	run := []echo.MiddlewareFunc{
		s.limitBody,
		gz, s.withLearner, s.sameOrigin, s.rateLimit,
	}
	site := append(run[:len(run):len(run)], requireLearnerCookie)

	e.GET("/", s.handleHome, site...)
	e.GET("/lessons", s.handleLessons, site...)
	e.GET("/lessons/:slug", s.handleLesson, site...)
	e.POST("/lessons/:slug/done", s.handleLessonDone, site...)
	e.POST("/lessons/:slug/drill", s.handleDrillAnswer, site...)
	e.GET("/labs", s.handleLabs, site...)
	e.GET("/labs/:slug", s.handleLab, site...)
	e.POST("/labs/:slug/run", s.handleLabRun, run...)
	e.POST("/labs/:slug/stop", s.handleLabStop, site...)
	e.GET("/labs/:slug/runs", s.handleLabRuns, site...)
	e.GET("/labs/:slug/runs/:id", s.handleLabRunPage, site...)
	e.POST("/labs/:slug/runs/:id/reflection", s.handleRunReflection, site...)
	e.GET("/labs/:slug/compare", s.handleLabCompare, site...)
	e.GET(fidelityURL, s.handleFidelity, site...)
	s.registerChat(site)
	s.registerWorkshops(site)
	s.registerPractice(site)
	e.GET("/healthz", s.handleHealthz)
	e.GET("/static/:name", s.assets.serve, gz)

	if s.cfg.API != nil {
		e.Any("/v1/*", echo.WrapHandler(s.cfg.API))
	}
	if s.cfg.Metrics != nil {
		e.GET("/metrics", echo.WrapHandler(s.cfg.Metrics))
	}
}
