package web

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"
)

const (
	ctxRequestID  = "requestID"
	ctxLearner    = "learner"
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
// SameSite=Lax cookie (Secure over TLS). No row is written until the
// learner saves something.
func (s *Server) withLearner(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := ""
		if ck, err := c.Cookie(learnerCookie); err == nil && validLearnerID(ck.Value) {
			id = ck.Value
		} else {
			id = randomHex(16)
			c.SetCookie(&http.Cookie{
				Name:     learnerCookie,
				Value:    id,
				Path:     "/",
				MaxAge:   400 * 24 * 60 * 60,
				HttpOnly: true,
				Secure:   c.IsTLS() && !s.cfg.CookieInsecure,
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

// sameOrigin refuses state-changing requests sent from another site's page.
// SameSite=Lax already keeps the cookie off such requests; this makes the
// refusal explicit.
func sameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method == http.MethodPost {
			if o := c.Request().Header.Get("Origin"); o != "" && o != "null" {
				u, err := url.Parse(o)
				if err != nil || u.Host != c.Request().Host {
					return &httpError{Status: http.StatusForbidden, Title: "Refused",
						Message: "Changes can only be made from this site's own pages.", Err: fmt.Errorf("origin %q vs host %q", o, c.Request().Host)}
				}
			}
		}
		return next(c)
	}
}

// rateLimit bounds POSTs per learner and says when to try again.
func (s *Server) rateLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method != http.MethodPost {
			return next(c)
		}
		if wait := s.limiter.reserve(learnerID(c), s.cfg.Clock.Now()); wait > 0 {
			secs := int((wait + time.Second - 1) / time.Second)
			return &httpError{Status: http.StatusTooManyRequests, Title: "Slow down a little",
				Message:    fmt.Sprintf("Too many requests in a short time. Try again in %d s.", secs),
				RetryAfter: secs}
		}
		return next(c)
	}
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
		return next(c)
	}
}
