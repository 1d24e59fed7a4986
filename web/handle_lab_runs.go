package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// handleLabRuns serves /labs/{slug}/runs: the run comparison as an HTML
// fragment, for scripts and tests that want it without the page.
func (s *Server) handleLabRuns(c echo.Context) error {
	lab, ok := s.cfg.Catalog.Get(c.Param("slug"))
	if !ok {
		return notFound("lab called “" + truncateRunes(c.Param("slug"), 60) + "”")
	}
	runs, err := s.runList(c.Request().Context(), learnerID(c), lab)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.RunList(runs))
}
