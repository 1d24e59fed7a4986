package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// handleLab serves /labs/{slug}: the lab on its own page.
func (s *Server) handleLab(c echo.Context) error {
	lab, ok := s.cfg.Catalog.Get(c.Param("slug"))
	if !ok {
		return notFound("lab called “" + truncateRunes(c.Param("slug"), 60) + "”")
	}
	lv, err := s.labView(c, lab, 1)
	if err != nil {
		return err
	}
	p := s.pageWithJS(c, lv.Info.Title, "labs")
	p.Description = lv.Info.Summary
	return render(c, http.StatusOK, views.LabPageView(p, lv))
}
