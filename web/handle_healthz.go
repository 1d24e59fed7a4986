package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// handleHealthz serves /healthz: 200 when the store answers, else 503.
func (s *Server) handleHealthz(c echo.Context) error {
	if err := s.store.Ping(c.Request().Context()); err != nil {
		s.cfg.Logger.Error("health check", "err", err)
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}
