package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

const (
	ctxRequestID = "requestID"
	ctxLearner   = "learner"
	// ctxHadCookie marks a request that arrived with a valid learner
	// cookie; only those may write rows under the learner's id.
	ctxHadCookie  = "hadCookie"
	learnerCookie = "ll_learner"
)

// contentSecurityPolicy fits Datastar: it evaluates expressions with
// Function, hence 'unsafe-eval'; charts and the spinner use inline style
// attributes, hence 'unsafe-inline' for styles only.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'unsafe-eval'; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}

// withRequestID gives each request an id, echoed in X-Request-ID and logs.
func withRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := randomHex(8)
		c.Set(ctxRequestID, id)
		c.Response().Header().Set("X-Request-ID", id)
		return next(c)
	}
}

func requestID(c echo.Context) string {
	id, _ := c.Get(ctxRequestID).(string)
	return id
}

// accessLog writes one slog line per request. It hands errors to the
// central handler first so the logged status is the one sent.
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := s.cfg.Clock.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		s.cfg.Logger.Info("request", "id", requestID(c), "method", c.Request().Method,
			"path", c.Request().URL.Path, "status", c.Response().Status,
			"duration", s.cfg.Clock.Now().Sub(start).Round(time.Microsecond), "bytes", c.Response().Size)
		return nil
	}
}

// recoverPanics turns a handler panic into a 500 page; the stack goes to
// the log only.
func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				s.cfg.Logger.Error("panic", "id", requestID(c), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = fmt.Errorf("panic in handler: %v", r)
			}
		}()
		return next(c)
	}
}

// securityHeaders sets the headers every response carries.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		return next(c)
	}
}

// withLearner gives every visitor an anonymous random id in an HttpOnly,
// SameSite=Lax cookie (Secure when the browser reached us over TLS). No
// row is written until the learner saves something, and never for a
// request that came without the cookie: its id is fresh, so saving under it
// would let a cookie-less flood fill the learners table.
func (s *Server) withLearner(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := ""
		if ck, err := c.Cookie(learnerCookie); err == nil && validLearnerID(ck.Value) {
			id = ck.Value
			c.Set(ctxHadCookie, true)
		} else {
			id = randomHex(16)
			c.SetCookie(&http.Cookie{
				Name:     learnerCookie,
				Value:    id,
				Path:     "/",
				MaxAge:   400 * 24 * 60 * 60,
				HttpOnly: true,
				Secure:   s.overTLS(c.Request()) && !s.cfg.CookieInsecure,
				SameSite: http.SameSiteLaxMode,
			})
		}
		c.Set(ctxLearner, id)
		return next(c)
	}
}

func validLearnerID(v string) bool {
	if len(v) != 32 {
		return false
	}
	_, err := hex.DecodeString(v)
	return err == nil
}

func learnerID(c echo.Context) string {
	id, _ := c.Get(ctxLearner).(string)
	return id
}

// hadLearnerCookie reports a request that carried a valid learner cookie.
func hadLearnerCookie(c echo.Context) bool {
	had, _ := c.Get(ctxHadCookie).(bool)
	return had
}

// knownLearner is the learner id limits are keyed on: "" without a cookie,
// since a fresh id per request limits nothing.
func knownLearner(c echo.Context) string {
	if hadLearnerCookie(c) {
		return learnerID(c)
	}
	return ""
}

// requireLearnerCookie refuses POSTs that would save under a learner id the
// browser did not send. The response sets the cookie, so a reload fixes it
// for a browser that accepts cookies.
func requireLearnerCookie(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method == http.MethodPost && !hadLearnerCookie(c) {
			return &httpError{Status: http.StatusBadRequest, Title: "Cookies needed",
				Message: "Your browser did not send this site's cookie, so there is nowhere to save this. Allow cookies for this site, reload the page and try again."}
		}
		return next(c)
	}
}

// sameOrigin refuses state-changing requests from pages elsewhere, from
// pages with no address, and sent to a Host this server is not configured
// to answer to (see originPolicy.check). SameSite=Lax already keeps the
// cookie off cross-site requests, but not off other ports of the same
// host, nor off a DNS-rebinding page.
func (s *Server) sameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method == http.MethodPost {
			if reason, ok := s.origins.Load().check(c.Request()); !ok {
				r := c.Request()
				return &httpError{Status: http.StatusForbidden, Title: "Refused", Message: reason,
					Err: fmt.Errorf("origin %q referer %q host %q not allowed", r.Header.Get("Origin"), r.Header.Get("Referer"), r.Host)}
			}
		}
		return next(c)
	}
}

// rateLimit bounds POSTs per client address and per learner, and says when
// to try again. A request without a cookie is held to its address's
// allowance alone.
func (s *Server) rateLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method != http.MethodPost {
			return next(c)
		}
		now := s.cfg.Clock.Now()
		wait, undoAddr := s.addrRate.reserve(clientAddr(c), now)
		if learner := knownLearner(c); wait == 0 && learner != "" {
			if wait, _ = s.learnerRate.reserve(learner, now); wait > 0 {
				undoAddr() // the address is not charged for a refused request
			}
		}
		if wait > 0 {
			secs := int((wait + time.Second - 1) / time.Second)
			return &httpError{Status: http.StatusTooManyRequests, Title: "Slow down a little",
				Message:    fmt.Sprintf("Too many requests in a short time. Try again in %d s.", secs),
				RetryAfter: secs}
		}
		return next(c)
	}
}

// acquireRun takes a run slot for c's learner and address; mine is the
// message when the learner's own cap refuses. Call release once when err
// is nil.
func (s *Server) acquireRun(c echo.Context, mine string) (release func(), err error) {
	release, refused := s.runs.acquire(knownLearner(c), clientAddr(c))
	if refused != nil {
		return nil, refused.error(mine)
	}
	return release, nil
}

// limitBody refuses bodies over BodyLimit with a 413 (declared length) or a
// read error the handler maps to 413 (undeclared length).
func (s *Server) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.ContentLength > s.cfg.BodyLimit {
			return echo.ErrStatusRequestEntityTooLarge
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, s.cfg.BodyLimit)
		if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); r.Method == http.MethodPost &&
			strings.EqualFold(strings.TrimSpace(ct), "application/x-www-form-urlencoded") {
			// Parse here so a cut-off or oversize form is refused: echo's
			// FormValue would hide the error and hand the handler "".
			if err := r.ParseForm(); err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) || errors.Is(err, os.ErrDeadlineExceeded) {
					return fmt.Errorf("read form: %w", err) // 413 or 408 in publicError
				}
				return badRequest("The form could not be read. Reload the page and try again.", err)
			}
		}
		return next(c)
	}
}
