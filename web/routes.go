package web

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes lists every route in one place. Pages get the learner cookie,
// body limit, same-origin check for POSTs and the per-learner rate limit;
// /v1 and /metrics get only the common middleware.
func (s *Server) routes() {
	e := s.echo
	e.Use(withRequestID, s.accessLog, s.recoverPanics, securityHeaders)

	gz := middleware.GzipWithConfig(middleware.GzipConfig{Level: 5})
	site := []echo.MiddlewareFunc{
		s.limitBody,
		gz, s.withLearner, sameOrigin, s.rateLimit,
	}

	e.GET("/", s.handleHome, site...)
	e.GET("/lessons", s.handleLessons, site...)
	e.GET("/lessons/:slug", s.handleLesson, site...)
	e.POST("/lessons/:slug/done", s.handleLessonDone, site...)
	e.POST("/lessons/:slug/drill", s.handleDrillAnswer, site...)
	e.GET("/labs", s.handleLabs, site...)
	e.GET("/labs/:slug", s.handleLab, site...)
	e.POST("/labs/:slug/run", s.handleLabRun, site...)
	e.GET("/labs/:slug/runs", s.handleLabRuns, site...)
	s.registerChat(site)
	e.GET("/healthz", s.handleHealthz)
	e.HEAD("/healthz", s.handleHealthz) // load balancers and uptime probes often use HEAD
	e.GET("/static/:name", s.assets.serve, gz)

	if s.cfg.API != nil {
		e.Any("/v1/*", echo.WrapHandler(s.cfg.API))
	}
	if s.cfg.Metrics != nil {
		e.GET("/metrics", echo.WrapHandler(s.cfg.Metrics))
	}
}
