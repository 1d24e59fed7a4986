package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// httpError is an error a learner may see: Status, Title and Message are
// public; Err is private and only logged.
type httpError struct {
	Status  int
	Title   string
	Message string
	Err     error
	// RetryAfter, in whole seconds, is sent as a Retry-After header.
	RetryAfter int
}

func (e *httpError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Status, e.Message, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Message)
}

func (e *httpError) Unwrap() error { return e.Err }

func notFound(what string) error {
	return &httpError{Status: http.StatusNotFound, Title: "Not found",
		Message: "There is no " + what + " here. It may have moved; the lessons and labs are linked below."}
}

func badRequest(msg string, err error) error {
	return &httpError{Status: http.StatusBadRequest, Title: "That request could not be used", Message: msg, Err: err}
}

func unprocessable(msg string, err error) error {
	return &httpError{Status: http.StatusUnprocessableEntity, Title: "Please check your input", Message: msg, Err: err}
}

// publicError turns any error into what the learner may see. Unknown
// errors become a 500 with no detail.
func publicError(err error) *httpError {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// The body did not arrive within the read timeout; handlers wrap
		// the read error, so this check comes before theirs.
		return &httpError{Status: http.StatusRequestTimeout, Title: "Too slow",
			Message: "The request took too long to arrive. Check your connection and try again.", Err: err}
	}
	var he *httpError
	if errors.As(err, &he) {
		return he
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = echo.ErrStatusRequestEntityTooLarge
	}
	var ee *echo.HTTPError
	if errors.As(err, &ee) {
		switch ee.Code {
		case http.StatusNotFound:
			return notFound("page").(*httpError)
		case http.StatusMethodNotAllowed:
			return &httpError{Status: ee.Code, Title: "Not allowed",
				Message: "This address does not accept that kind of request. Changes are only made with the buttons on the pages.", Err: err}
		case http.StatusRequestEntityTooLarge:
			return &httpError{Status: ee.Code, Title: "Too much data",
				Message: "The request was larger than this site accepts. Shorten your answer and try again.", Err: err}
		}
		if ee.Code >= 400 && ee.Code < 500 {
			return &httpError{Status: ee.Code, Title: http.StatusText(ee.Code),
				Message: "The request could not be handled.", Err: err}
		}
	}
	return &httpError{Status: http.StatusInternalServerError, Title: "Something went wrong",
		Message: "Something went wrong on our side. It has been logged; please try again in a moment.", Err: err}
}

// handleError is echo's central error handler: it logs private detail with
// the request id and answers with a page, or, for a Datastar lab run, a
// patch into that lab's error box.
func (s *Server) handleError(err error, c echo.Context) {
	pe := publicError(err)
	rid := requestID(c)
	level := slog.LevelInfo
	if pe.Status >= 500 {
		level = slog.LevelError
	}
	s.cfg.Logger.Log(c.Request().Context(), level, "request error",
		"id", rid, "status", pe.Status, "path", c.Request().URL.Path, "err", err)
	if c.Response().Committed {
		return
	}
	if pe.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", fmt.Sprint(pe.RetryAfter))
	}
	// A body cut by the read timeout cancels the request's context; the
	// 408 must still render, so the answer does not depend on it.
	r := c.Request()
	c.SetRequest(r.WithContext(context.WithoutCancel(r.Context())))
	msg := pe.Message
	if pe.Status >= 500 && rid != "" {
		msg += " (Reference: " + rid + ".)"
	}
	if isLabRun(c) {
		if lerr := s.rejectRun(c, pe.Status, idsFor(c.Param("slug")).Prefix, msg); lerr != nil {
			s.cfg.Logger.Warn("write run error", "id", rid, "err", lerr)
		}
		return
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(pe.Status)
		return
	}
	p := s.page(c, pe.Title, "")
	if rerr := render(c, pe.Status, views.ErrorView(p, views.ErrorPage{Status: pe.Status, Title: pe.Title, Message: msg})); rerr != nil {
		s.cfg.Logger.Warn("write error page", "id", rid, "err", rerr)
	}
}

// isLabRun reports a Datastar request to a lab's run route, whose errors
// must land inside the page rather than replace it.
func isLabRun(c echo.Context) bool {
	return c.Request().Header.Get("Datastar-Request") != "" &&
		strings.HasPrefix(c.Path(), "/labs/:slug/run") && slugRe.MatchString(c.Param("slug"))
}
