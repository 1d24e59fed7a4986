package web

import (
	"encoding/json"
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"
)

// runTokenRe is what a page's run token looks like (runClick makes it);
// anything else is treated as no token.
var runTokenRe = regexp.MustCompile(`^[a-z0-9]{1,40}$`)

// labRunKey names one run of a learner's lab for Stop: the learner, the
// lab and the token the page made for that run ("" for a page without).
func labRunKey(learner, slug, token string) string {
	return learner + "/" + slug + "/" + token
}

// runToken reads the page's run token from its signals.
func runToken(raw json.RawMessage) string {
	var tok string
	if json.Unmarshal(raw, &tok) != nil || !runTokenRe.MatchString(tok) {
		return ""
	}
	return tok
}

// handleLabStop serves POST /labs/{slug}/stop: it cancels the learner's
// run of that lab that the page names by its token (every run of the lab
// when the page sends none). Its stream then says it stopped; cancelling
// its context ends the engine request, which frees its KV cache at once. A
// Stop that reaches the server before its run does waits for it.
// Stopping when nothing runs is not an error: the run may have just ended.
func (s *Server) handleLabStop(c echo.Context) error {
	slug := c.Param("slug")
	if _, ok := s.cfg.Catalog.Get(slug); !ok {
		return notFound("lab called “" + truncateRunes(slug, 60) + "”")
	}
	var signals map[string]json.RawMessage
	if err := readSignals(c.Request(), &signals); err != nil {
		return badRequest("The stop request could not be read. Reload the page.", err)
	}
	learner := learnerID(c)
	if tok := runToken(signals[idsFor(slug).Token]); tok != "" {
		s.labRuns.cancelOrRemember(labRunKey(learner, slug, tok), errStopped)
	} else {
		s.labRuns.cancelPrefix(labRunKey(learner, slug, ""), errStopped)
	}
	openStream(c, http.StatusOK) // an empty stream: the client expects SSE
	return nil
}
