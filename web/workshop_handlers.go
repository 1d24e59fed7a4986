package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// maxWorkshopName bounds a workshop's name in runes.
const maxWorkshopName = 80

// registerWorkshops adds the workshop routes; site is the page chain
// (origin check, rate limits, required cookie on POSTs). The room streams
// skip compression: they carry a few kilobytes over a whole session, and
// a gzip writer held open per learner would cost far more memory than it
// saves bytes.
func (s *Server) registerWorkshops(site []echo.MiddlewareFunc) {
	e := s.echo
	stream := []echo.MiddlewareFunc{s.limitBody, s.withLearner, s.sameOrigin, s.rateLimit}
	e.GET("/workshops/new", s.handleWorkshopNew, site...)
	e.POST("/workshops", s.handleWorkshopCreate, site...)
	e.GET("/join", s.handleJoinForm, site...)
	e.GET("/join/:code", s.handleJoinForm, site...)
	e.POST("/join", s.handleJoin, site...)
	e.GET("/workshops/:code", s.handleWorkshopLearner, site...)
	e.GET("/workshops/:code/events", s.handleWorkshopLearnerEvents, stream...)
	e.GET("/workshops/:code/board", s.handleWorkshopBoard, site...)
	e.GET("/workshops/:code/board/events", s.handleWorkshopBoardEvents, stream...)
	e.POST("/workshops/:code/push", s.handleWorkshopPush, site...)
	e.POST("/workshops/:code/settings", s.handleWorkshopSettings, site...)
	e.POST("/workshops/:code/runall", s.handleWorkshopRunAll, site...)
	e.GET("/workshops/:code/export.csv", s.handleWorkshopExport, site...)
	e.POST("/workshops/:code/end", s.handleWorkshopEnd, site...)
}

func noWorkshop() error {
	return &httpError{Status: http.StatusNotFound, Title: "No such workshop",
		Message: "No workshop has that code. Check the code your instructor shows; it is six letters and digits."}
}

func notInstructor() error {
	return &httpError{Status: http.StatusForbidden, Title: "Only the instructor can open this",
		Message: "This is the instructor's board. If you are a learner in this workshop, your own page is the one the join code took you to. If you run this workshop, open it with your private instructor link."}
}

// handleWorkshopNew serves GET /workshops/new.
func (s *Server) handleWorkshopNew(c echo.Context) error {
	return render(c, http.StatusOK, views.WorkshopNewPage(s.page(c, "Run a workshop", ""), views.WorkshopNew{}))
}

// handleWorkshopCreate serves POST /workshops: a new room, the instructor
// cookie, and a 303 to the board.
func (s *Server) handleWorkshopCreate(c echo.Context) error {
	name, problem := cleanText(c.FormValue("name"), maxWorkshopName, "The session's name")
	if problem != "" {
		return render(c, http.StatusUnprocessableEntity, views.WorkshopNewPage(s.page(c, "Run a workshop", ""),
			views.WorkshopNew{Name: truncateRunes(c.FormValue("name"), maxWorkshopName), Error: problem}))
	}
	secret := newInstructorSecret()
	ws := store.Workshop{Name: name, SecretHash: hashSecret(secret), SizeCap: s.cfg.Workshops.SizeCap, CreatedAt: s.cfg.Clock.Now()}
	var err error
	for range 8 { // a clash among a billion codes is rare; eight in a row is not going to happen
		ws.Code = newWorkshopCode()
		if err = s.store.CreateWorkshop(c.Request().Context(), ws); !errors.Is(err, store.ErrCodeTaken) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("create workshop: %w", err)
	}
	s.setInstructorCookie(c, ws.Code, secret)
	s.cfg.Logger.Info("workshop created", "id", requestID(c), "code", ws.Code)
	return c.Redirect(http.StatusSeeOther, "/workshops/"+ws.Code+"/board")
}

func instructorCookieName(code string) string { return "ll_ws_" + code }

// setInstructorCookie keeps the secret in a cookie scoped to the room's
// paths, so the board, push, export and end routes see it and nothing
// else does.
func (s *Server) setInstructorCookie(c echo.Context, code, secret string) {
	c.SetCookie(&http.Cookie{Name: instructorCookieName(code), Value: secret, Path: "/workshops/" + code,
		MaxAge: 30 * 24 * 60 * 60, HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.overTLS(c.Request()) && !s.cfg.CookieInsecure})
}

// isInstructor reports a request carrying the room's secret.
func isInstructor(c echo.Context, ws store.Workshop) bool {
	ck, err := c.Cookie(instructorCookieName(ws.Code))
	return err == nil && secretMatches(ck.Value, ws.SecretHash)
}

// instructorRoom loads the room for an instructor-only route: 404 for an
// unknown code, 403 for anyone without the secret.
func (s *Server) instructorRoom(c echo.Context) (*room, store.Workshop, error) {
	r, err := s.workshops.get(c.Request().Context(), c.Param("code"))
	if err != nil {
		return nil, store.Workshop{}, err
	}
	ws := r.workshop()
	if !isInstructor(c, ws) {
		return nil, store.Workshop{}, notInstructor()
	}
	return r, ws, nil
}

// cleanText trims s, folds runs of whitespace and control characters into
// one space, and checks its length; problem is for the learner.
func cleanText(s string, maxRunes int, what string) (clean, problem string) {
	if !utf8.ValidString(s) {
		return "", what + " has characters that could not be read."
	}
	clean = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	switch n := utf8.RuneCountInString(clean); {
	case n == 0:
		return "", what + " is empty. Type at least one letter."
	case n > maxRunes:
		return "", fmt.Sprintf("%s is %d characters long; keep it to %d.", what, n, maxRunes)
	}
	return clean, ""
}

// handleJoinForm serves GET /join and /join/{code} (the QR code's link).
func (s *Server) handleJoinForm(c echo.Context) error {
	code := normalizeCode(c.Param("code"))
	if !validCode(code) {
		code = ""
	}
	return render(c, http.StatusOK, views.JoinPage(s.page(c, "Join a workshop", ""), views.JoinForm{Code: code}))
}

// handleJoin serves POST /join (fields code and name): the learner joins
// and is sent to the room's page. A wrong code costs the client address a
// token of a small allowance, so codes cannot be found by trying them; a
// right one costs nothing.
func (s *Server) handleJoin(c echo.Context) error {
	form := views.JoinForm{Code: truncateRunes(strings.TrimSpace(c.FormValue("code")), 12), Name: truncateRunes(c.FormValue("name"), store.MaxMemberName)}
	refuse := func(status int, msg string) error {
		form.Error = msg
		return render(c, status, views.JoinPage(s.page(c, "Join a workshop", ""), form))
	}
	name, problem := cleanText(c.FormValue("name"), store.MaxMemberName, "Your name")
	if problem != "" {
		return refuse(http.StatusUnprocessableEntity, problem)
	}
	now := s.cfg.Clock.Now()
	wait, undo := s.joinFails.reserve(clientAddr(c), now)
	if wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		c.Response().Header().Set("Retry-After", fmt.Sprint(secs))
		return refuse(http.StatusTooManyRequests, fmt.Sprintf("Too many wrong codes from your network. Check the code with your instructor and try again in %d s.", secs))
	}
	code := normalizeCode(c.FormValue("code"))
	if code == "" {
		undo() // nothing was guessed
		return refuse(http.StatusUnprocessableEntity, "The code is empty. Type the six letters and digits your instructor shows.")
	}
	r, err := s.workshops.get(c.Request().Context(), code)
	if err != nil {
		var he *httpError
		if errors.As(err, &he) && he.Status == http.StatusNotFound {
			return refuse(http.StatusNotFound, "No workshop has that code. Check it with your instructor: six letters and digits, no O, 0, I or 1.")
		}
		return err
	}
	undo() // the code exists: not a guess
	if ws := r.workshop(); !ws.Ended() && now.Sub(ws.CreatedAt) > s.cfg.Workshops.JoinWindow {
		if _, err := s.store.GetMember(c.Request().Context(), code, learnerID(c)); err != nil {
			return refuse(http.StatusGone, "This workshop's code has expired, so it takes no new learners. Ask your instructor for a fresh one.")
		}
	}
	m, err := s.store.JoinWorkshop(c.Request().Context(), code, learnerID(c), name, now)
	switch {
	case errors.Is(err, store.ErrWorkshopEnded):
		return refuse(http.StatusGone, "This workshop has ended, so it takes no new learners. Ask your instructor for the code of the current one.")
	case errors.Is(err, store.ErrWorkshopFull):
		return refuse(http.StatusConflict, fmt.Sprintf("This workshop is full: it holds %d learners. Ask your instructor to open a second room.", r.workshop().SizeCap))
	case errors.Is(err, store.ErrInvalid):
		return refuse(http.StatusUnprocessableEntity, "That name cannot be used here. Try a shorter or different one.")
	case err != nil:
		return fmt.Errorf("join %s: %w", code, err)
	}
	s.cfg.Logger.Info("workshop joined", "id", requestID(c), "code", code, "member", m.Name)
	r.changed()
	return c.Redirect(http.StatusSeeOther, "/workshops/"+code)
}
