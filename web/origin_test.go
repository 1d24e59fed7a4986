package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestOriginPolicy(t *testing.T) {
	tests := []struct {
		name     string
		addr     string
		explicit []string
		host     string
		headers  map[string]string
		want     bool
	}{
		{"own origin", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Origin": "http://127.0.0.1:8080"}, true},
		{"localhost for a loopback bind", "127.0.0.1:8080", nil, "localhost:8080", map[string]string{"Origin": "http://localhost:8080"}, true},
		{"another port of the same host", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Origin": "http://localhost:3000"}, false},
		{"null origin", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Origin": "null"}, false},
		{"foreign origin", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Origin": "https://evil.example"}, false},
		{"junk origin", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Origin": "::not a url"}, false},
		{"rebound name", "127.0.0.1:8080", nil, "evil.example:8080", map[string]string{"Origin": "http://evil.example:8080"}, false},
		{"script without browser headers", "127.0.0.1:8080", nil, "127.0.0.1:8080", nil, true},
		{"no origin, cross-site fetch", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Sec-Fetch-Site": "cross-site"}, false},
		{"no origin, same-site other port", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Sec-Fetch-Site": "same-site"}, false},
		{"no origin, same-origin fetch", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Sec-Fetch-Site": "same-origin"}, true},
		{"no origin, foreign referer", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Referer": "https://evil.example/page"}, false},
		{"no origin, own referer", "127.0.0.1:8080", nil, "127.0.0.1:8080", map[string]string{"Referer": "http://127.0.0.1:8080/labs/ticker"}, true},
		{"configured public origin", "127.0.0.1:8080", []string{"https://lab.example.org"}, "lab.example.org", map[string]string{"Origin": "https://lab.example.org"}, true},
		{"configured origin, default port spelled out", "127.0.0.1:8080", []string{"https://Lab.Example.org:443/"}, "lab.example.org:443", map[string]string{"Origin": "https://lab.example.org"}, true},
		{"proxy passing the upstream Host", "127.0.0.1:8080", []string{"https://lab.example.org"}, "127.0.0.1:8080", map[string]string{"Origin": "https://lab.example.org"}, true},
		{"a configured list replaces the defaults", "127.0.0.1:8080", []string{"https://lab.example.org"}, "127.0.0.1:8080", map[string]string{"Origin": "http://127.0.0.1:8080"}, false},
		{"http is not https", "127.0.0.1:8080", []string{"https://lab.example.org"}, "lab.example.org", map[string]string{"Origin": "http://lab.example.org"}, false},
		{"port 0: any loopback port", "127.0.0.1:0", nil, "127.0.0.1:4567", map[string]string{"Origin": "http://localhost:4567"}, true},
		{"port 0: still no foreign host", "127.0.0.1:0", nil, "evil.example:4567", nil, false},
		{"port 0: still no foreign origin", "127.0.0.1:0", nil, "127.0.0.1:4567", map[string]string{"Origin": "http://evil.example:4567"}, false},
		{"wildcard bind: loopback", "0.0.0.0:8080", nil, "127.0.0.1:8080", map[string]string{"Origin": "http://127.0.0.1:8080"}, true},
		{"wildcard bind: foreign host", "0.0.0.0:8080", nil, "evil.example:8080", nil, false},
		{"named bind", "lab.internal:8080", nil, "lab.internal:8080", map[string]string{"Origin": "http://lab.internal:8080"}, true},
		{"v6 loopback", "[::1]:8080", nil, "[::1]:8080", map[string]string{"Origin": "http://[::1]:8080"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newOriginPolicy(tt.addr, tt.explicit)
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest("POST", "/lessons/x/done", nil)
			r.Host = tt.host
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			reason, ok := p.check(r)
			if ok != tt.want {
				t.Errorf("allowed %v (%q), want %v", ok, reason, tt.want)
			}
			if !ok && reason == "" {
				t.Error("refused without a reason")
			}
		})
	}
}

func TestConfigRefusesBadOriginsAndProxies(t *testing.T) {
	for _, tt := range []struct {
		name string
		lim  Limits
		want string
	}{
		{"null origin", Limits{AllowedOrigins: []string{"null"}}, `allowed origin "null"`},
		{"no scheme", Limits{AllowedOrigins: []string{"lab.example.org"}}, `allowed origin "lab.example.org"`},
		{"a path", Limits{AllowedOrigins: []string{"https://lab.example.org/labs"}}, "want scheme://host[:port]"},
		{"ftp", Limits{AllowedOrigins: []string{"ftp://lab.example.org"}}, "want scheme://host[:port]"},
		{"bad proxy", Limits{TrustedProxies: []string{"10.0.0.0/99"}}, `trusted proxy "10.0.0.0/99"`},
		{"negative timeout", Limits{ReadTimeout: -1}, "timeouts must not be negative"},
		{"negative cap", Limits{MaxRunsTotal: -1}, "max runs total -1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Config{Limits: tt.lim}.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

// postWith sends a POST with extra headers and returns status and body.
func postWith(t *testing.T, c *http.Client, u, contentType, body string, headers map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestForeignPostsAreRefusedWithAReason(t *testing.T) {
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s) // Serve pins the allowed origins to the real port
	u, _ := url.Parse(base)
	other := "http://127.0.0.1:1" // same host, another port: same-site to a browser
	routes := []struct{ path, ctype, body, where string }{
		{"/lessons/first-token/done", "application/x-www-form-urlencoded", "done=1", "Refused"},
		{"/labs/ticker/run", "application/json", `{"labTicker":{"steps":1,"gapMs":1}}`, "#lab-ticker-error"},
	}
	for _, rt := range routes {
		for _, tt := range []struct {
			name    string
			headers map[string]string
			reason  string
		}{
			{"null origin", map[string]string{"Origin": "null"}, "page with no address"},
			{"foreign origin", map[string]string{"Origin": "https://evil.example"}, "not from https://evil.example"},
			{"other port", map[string]string{"Origin": other}, "not from " + other},
			{"foreign host", map[string]string{"Host": "evil.example:" + u.Port()}, "does not accept changes sent to the name"},
		} {
			t.Run(rt.path+" "+tt.name, func(t *testing.T) {
				c := client(t)
				get(t, c, base+"/")
				tt.headers["Datastar-Request"] = "true"
				resp, body := postWith(t, c, base+rt.path, rt.ctype, rt.body, tt.headers)
				if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, tt.reason) || !strings.Contains(body, rt.where) {
					t.Errorf("status %d, want 403 with %q in %s; body %.400s", resp.StatusCode, tt.reason, rt.where, body)
				}
			})
		}
	}
	t.Run("own origin passes", func(t *testing.T) {
		c := client(t)
		get(t, c, base+"/")
		resp, _ := postWith(t, c, base+"/lessons/first-token/done", "application/x-www-form-urlencoded", "done=1",
			map[string]string{"Origin": base})
		if resp.StatusCode != http.StatusSeeOther {
			t.Errorf("own origin: %d, want 303", resp.StatusCode)
		}
	})
	if n := learnerRows(t, s); n != 1 {
		t.Errorf("%d learner rows, want only the one whose POST passed", n)
	}
}

func TestSecureCookie(t *testing.T) {
	tests := []struct {
		name     string
		tls      bool
		proxies  []string
		proto    string
		insecure bool
		want     bool
	}{
		{"plain http", false, nil, "", false, false},
		{"direct TLS", true, nil, "", false, true},
		{"direct TLS, cookies forced insecure", true, nil, "", true, false},
		{"trusted proxy says https", false, []string{"127.0.0.0/8"}, "https", false, true},
		{"trusted proxy says http", false, []string{"127.0.0.0/8"}, "http", false, false},
		{"untrusted peer says https", false, nil, "https", false, false},
		{"peer outside the trusted range says https", false, []string{"10.0.0.0/8"}, "https", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, func(c *Config) {
				c.Limits.TrustedProxies = tt.proxies
				c.CookieInsecure = tt.insecure
			})
			var ts *httptest.Server
			if tt.tls {
				ts = httptest.NewTLSServer(s.Handler())
			} else {
				ts = httptest.NewServer(s.Handler())
			}
			defer ts.Close()
			req, _ := http.NewRequest("GET", ts.URL+"/", nil)
			if tt.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			var got *http.Cookie
			for _, ck := range resp.Cookies() {
				if ck.Name == learnerCookie {
					got = ck
				}
			}
			if got == nil || got.Secure != tt.want {
				t.Errorf("cookie %+v, want Secure=%v", got, tt.want)
			}
		})
	}
}

func TestHeadAnswersEveryGetPage(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	_, home := get(t, c, ts.URL+"/")
	css := ""
	if i := strings.Index(home, "/static/"); i >= 0 {
		css = home[i : i+strings.IndexByte(home[i:], '"')]
	}
	if css == "" {
		t.Fatal("no static asset linked from the home page")
	}
	for _, p := range []string{"/", "/lessons", "/lessons/first-token", "/labs", "/labs/ticker", "/labs/ticker/runs",
		"/chat", "/healthz", css, "/nope", "/lessons/nope", "/labs/ticker/run"} {
		t.Run(p, func(t *testing.T) {
			g, _ := get(t, c, ts.URL+p)
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodHead, ts.URL+p, nil)
			h, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(h.Body)
			h.Body.Close()
			if h.StatusCode != g.StatusCode || len(b) != 0 || h.Header.Get("Content-Type") != g.Header.Get("Content-Type") {
				t.Errorf("HEAD %d %q with %d body bytes; GET %d %q", h.StatusCode, h.Header.Get("Content-Type"), len(b),
					g.StatusCode, g.Header.Get("Content-Type"))
			}
		})
	}
}

// FuzzOriginCheck feeds the origin policy arbitrary headers: it must never
// panic, never let a "null" Origin or a foreign Host through, and never
// accept an Origin it could not normalise.
func FuzzOriginCheck(f *testing.F) {
	f.Add("127.0.0.1:8080", "http://127.0.0.1:8080", "", "")
	f.Add("localhost:8080", "null", "", "")
	f.Add("evil.example", "http://evil.example", "same-origin", "http://evil.example/")
	f.Add("[::1]:8080", "http://[::1]:8080", "", "")
	f.Add("127.0.0.1:8080", "", "cross-site", "http://127.0.0.1:8080/x")
	f.Add("127.0.0.1:8080", "HTTP://LOCALHOST:8080", "", "%zz")
	f.Add("127.0.0.1:80", "http://127.0.0.1", "", "")
	policies := map[string]*originPolicy{}
	for _, addr := range []string{"127.0.0.1:8080", "127.0.0.1:0"} {
		p, err := newOriginPolicy(addr, nil)
		if err != nil {
			f.Fatal(err)
		}
		policies[addr] = p
	}
	f.Fuzz(func(t *testing.T, host, origin, fetchSite, referer string) {
		for addr, p := range policies {
			r := httptest.NewRequest("POST", "/", nil)
			r.Host = host
			r.Header.Set("Origin", origin)
			r.Header.Set("Sec-Fetch-Site", fetchSite)
			r.Header.Set("Referer", referer)
			reason, ok := p.check(r)
			switch {
			case ok && r.Header.Get("Origin") == "null":
				t.Errorf("%s: null origin allowed", addr)
			case ok && !p.allowsHost(host):
				t.Errorf("%s: host %q allowed", addr, host)
			case ok && r.Header.Get("Origin") != "":
				if _, err := normalOrigin(r.Header.Get("Origin")); err != nil {
					t.Errorf("%s: unparseable origin %q allowed", addr, origin)
				}
			case !ok && reason == "":
				t.Errorf("%s: refused without a reason", addr)
			}
		}
	})
}

// FuzzLimitLists feeds the origin and proxy list parsers arbitrary text:
// no panic, and whatever they accept parses again to the same value.
func FuzzLimitLists(f *testing.F) {
	for _, s := range []string{"https://lab.example.org", "http://[::1]:8080/", "null", "10.0.0.0/8", "::1", "1.2.3.4/33", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out, err := parseOrigins([]string{s}); err == nil {
			again, err := parseOrigins(out)
			if err != nil || len(again) != 1 || again[0] != out[0] {
				t.Errorf("origin %q → %q → %q, %v", s, out, again, err)
			}
		}
		if ps, err := parseProxies([]string{s}); err == nil {
			again, err := parseProxies([]string{ps[0].String()})
			if err != nil || again[0] != ps[0] {
				t.Errorf("proxy %q → %v → %v, %v", s, ps, again, err)
			}
		}
	})
}
