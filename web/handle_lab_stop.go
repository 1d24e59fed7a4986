package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// labRunKey names a learner's runs of one lab for Stop.
func labRunKey(learner, slug string) string { return learner + "/" + slug }

// handleLabStop serves POST /labs/{slug}/stop: it cancels the learner's
// runs of that lab. Each run's own stream then says it stopped; cancelling
// its context ends the engine request, which frees its KV cache at once.
// Stopping when nothing runs is not an error: the run may have just ended.
func (s *Server) handleLabStop(c echo.Context) error {
	slug := c.Param("slug")
	if _, ok := s.cfg.Catalog.Get(slug); !ok {
		return notFound("lab called “" + truncateRunes(slug, 60) + "”")
	}
	s.labRuns.cancel(labRunKey(learnerID(c), slug), errStopped)
	openStream(c, http.StatusOK) // an empty stream: the client expects SSE
	return nil
}
