package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// handleLabs serves /labs: the catalogue.
func (s *Server) handleLabs(c echo.Context) error {
	return render(c, http.StatusOK, views.LabIndexPage(s.page(c, "Labs", "labs"), s.labItems(), s.attachedServer()))
}
