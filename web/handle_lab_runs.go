package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
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

// labFromPath is the lab named by the {slug} path parameter, or a 404.
func (s *Server) labFromPath(c echo.Context) (labs.Lab, error) {
	lab, ok := s.cfg.Catalog.Get(c.Param("slug"))
	if !ok {
		return nil, notFound("lab called “" + truncateRunes(c.Param("slug"), 60) + "”")
	}
	return lab, nil
}

// learnerRun loads one of the requesting learner's runs by the id in raw.
// An id that is not a number, not saved, or another learner's is a 404
// that says the same in every case, so ids reveal nothing.
func (s *Server) learnerRun(c echo.Context, raw string) (store.Run, error) {
	missing := notFound("saved run “" + truncateRunes(raw, 20) + "” among your runs")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return store.Run{}, missing
	}
	r, err := s.store.GetRun(c.Request().Context(), learnerID(c), id)
	if errors.Is(err, store.ErrRunNotFound) {
		return store.Run{}, missing
	}
	return r, err
}

// runName is the name a learner sees for a run: its place among their
// runs of that lab, which stays put as new runs arrive.
func runName(r store.Run) string { return "run #" + strconv.Itoa(r.Seq) }

// runURL is where a saved run reopens.
func runURL(slug string, id int64) string {
	return "/labs/" + slug + "/runs/" + strconv.FormatInt(id, 10)
}

// reflectionForm is the reflection box of run r as shown in view: "runs"
// (the run list under a lab) or "run" (the reopened run's page).
func reflectionForm(slug string, r store.Run, view string) views.ReflectionForm {
	id := "run-reflection"
	if view == "runs" {
		id = idsFor(slug).Prefix + "-reflect"
	}
	return views.ReflectionForm{ID: id, Action: runURL(slug, r.ID) + "/reflection", View: view,
		Run: runName(r), Value: r.Reflection, Max: store.MaxReflectionRunes}
}
