package openaiapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// gate decides who may use /v1 and how many at once: browser pages from
// other sites are refused (a form or fetch from any page could otherwise
// spend the engines), an API key is checked when one is configured, and a
// semaphore caps the completions in flight.
type gate struct {
	keyHash [sha256.Size]byte
	hasKey  bool
	origins map[string]bool // normalised scheme://host[:port]
	slots   chan struct{}
}

func newGate(cfg Config) (*gate, error) {
	origins, err := parseOrigins(cfg.AllowedOrigins)
	if err != nil {
		return nil, fmt.Errorf("openaiapi: %w", err)
	}
	g := &gate{origins: origins, slots: make(chan struct{}, cfg.MaxConcurrent)}
	if cfg.APIKey != "" {
		g.hasKey, g.keyHash = true, sha256.Sum256([]byte(cfg.APIKey))
	}
	return g, nil
}

// parseOrigins normalises each allowed origin, refusing ones with a path,
// no scheme or no host (a typo would otherwise allow nothing, silently).
func parseOrigins(list []string) (map[string]bool, error) {
	out := make(map[string]bool, len(list))
	for _, o := range list {
		u, err := url.Parse(strings.TrimSpace(o))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return nil, fmt.Errorf("allowed origin %q is not scheme://host[:port]", o)
		}
		out[u.Scheme+"://"+strings.ToLower(u.Host)] = true
	}
	return out, nil
}

// ValidateOrigins reports the first entry of an allowed-origins list that
// is not scheme://host[:port], for flag checking before a Server exists.
func ValidateOrigins(list []string) error {
	_, err := parseOrigins(list)
	return err
}

// guard runs the origin and key checks before next.
func (g *gate) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := g.checkOrigin(r); err != nil {
			writeError(w, err)
			return
		}
		if g.allowCrossOrigin(w, r) {
			return // a CORS preflight, answered
		}
		if err := g.checkKey(r); err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="latencylab"`)
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkOrigin refuses requests a browser sent on behalf of another site's
// page. SDKs and curl send neither Origin nor Sec-Fetch-Site, so they pass;
// a browser always sends Origin on a cross-origin POST and Sec-Fetch-Site
// on every request. "null" (sandboxed frames, file: pages) is refused.
func (g *gate) checkOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		switch r.Header.Get("Sec-Fetch-Site") {
		case "cross-site", "same-site":
			return forbidden("this API does not serve pages from other sites (Sec-Fetch-Site: %s)", r.Header.Get("Sec-Fetch-Site"))
		}
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return forbidden("this API does not serve pages from origin %q", origin)
	}
	host := strings.ToLower(u.Host)
	if host == strings.ToLower(r.Host) || g.origins[u.Scheme+"://"+host] {
		return nil
	}
	return forbidden("this API does not serve pages from origin %q: only the server's own pages and its configured allowed origins may call it", origin)
}

// allowCrossOrigin lets the browser hand an allowed other origin's page
// the response (CORS), and answers its preflight, which carries no key.
// Only origins that passed checkOrigin reach here.
func (g *gate) allowCrossOrigin(w http.ResponseWriter, r *http.Request) (answered bool) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	if u, _ := url.Parse(origin); strings.EqualFold(u.Host, r.Host) {
		return false // the server's own page: no CORS needed
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	if r.Method != http.MethodOptions {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

func forbidden(format string, args ...any) *APIError {
	return &APIError{Status: http.StatusForbidden, Type: "invalid_request_error", Code: "cross_origin_forbidden", Message: fmt.Sprintf(format, args...)}
}

// checkKey compares the bearer token with the configured key in constant
// time (over fixed-length digests, so the key's length does not leak
// either).
func (g *gate) checkKey(r *http.Request) error {
	if !g.hasKey {
		return nil
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || token == "" {
		return &APIError{Status: http.StatusUnauthorized, Type: "invalid_request_error", Code: "invalid_api_key",
			Message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."}
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(token)))
	if subtle.ConstantTimeCompare(got[:], g.keyHash[:]) != 1 {
		return &APIError{Status: http.StatusUnauthorized, Type: "invalid_request_error", Code: "invalid_api_key",
			Message: "Incorrect API key provided. Ask the server's operator for the key (serve --api-key / LATENCYLAB_API_KEY)."}
	}
	return nil
}

// acquire takes a concurrency slot without waiting: a full server answers
// 429 at once, so a flood is turned away instead of queueing goroutines.
func (g *gate) acquire() (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	default:
		return nil, &APIError{Status: http.StatusTooManyRequests, Type: "rate_limit_error", Code: "rate_limit_exceeded", RetryAfter: 1,
			Message: fmt.Sprintf("this server is serving its limit of %d requests at once: retry after 1 s", cap(g.slots))}
	}
}

// requireJSON refuses bodies that are not JSON. A browser sends a
// cross-site form or text/plain POST without asking first (no CORS
// preflight), so accepting any content type let any web page run
// completions.
func requireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil && mt == "application/json" {
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") {
			return nil
		}
	}
	if ct == "" {
		ct = "none"
	}
	return &APIError{Status: http.StatusUnsupportedMediaType, Type: "invalid_request_error", Code: "unsupported_media_type",
		Message: fmt.Sprintf("Content-Type is %s: send the body as application/json", ct)}
}
