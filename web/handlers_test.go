package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

func TestPagesRender(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	cases := []struct {
		path string
		want []string
	}{
		{"/", []string{"Where do the seconds go", "0</strong> of 2 lessons done", "Time to first token", "Ticker lab", `href="/lessons/first-token"`}},
		{"/lessons", []string{"Lessons", "Time to first token", "Batching", "6 min"}},
		{"/lessons/first-token", []string{"Lesson <strong>body</strong>", `id="lab-ticker"`, `data-bind="labTicker.steps"`,
			"How do you cut TTFT?", `href="/lessons/batching"`, "Mark as done", "@post(&#39;/labs/ticker/run&#39;, {openWhenHidden: true, retryMaxCount: 0})",
			"What time to first word do you expect?", `type="module"`}},
		{"/lessons/batching", []string{"Batching body.", `href="/lessons/first-token"`}},
		{"/labs", []string{"Ticker lab", "Counts words out loud."}},
		{"/labs/ticker", []string{"<h1 id=\"lab-ticker-title\">Ticker lab</h1>", `id="lab-ticker-stats"`, `id="lab-ticker-runs"`,
			"$labTicker.steps = 3; $labTicker.gapMs = 50; $labTicker.mode = &#34;words&#34;; $labTicker.loud = false; $_labTickerNote = &#34;few steps&#34;", "Taught in", `<option value="words" selected>`}},
	}
	for _, tc := range cases {
		resp, body := get(t, c, ts.URL+tc.path)
		if resp.StatusCode != 200 {
			t.Errorf("GET %s = %d", tc.path, resp.StatusCode)
			continue
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s content type %q", tc.path, ct)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: body lacks %q", tc.path, w)
			}
		}
	}
	// Pages without a lab do not load Datastar.
	if _, body := get(t, c, ts.URL+"/lessons/batching"); strings.Contains(body, "datastar.") {
		t.Error("a page without a lab loads the Datastar script")
	}
}

func TestStaticAssetsAreHashedAndCached(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	_, body := get(t, c, ts.URL+"/labs/ticker")
	for _, re := range []string{`/static/app\.[0-9a-f]{10}\.css`, `/static/datastar\.[0-9a-f]{10}\.js`} {
		u := regexp.MustCompile(re).FindString(body)
		if u == "" {
			t.Fatalf("page has no %s link", re)
		}
		resp, asset := get(t, c, ts.URL+u)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || len(asset) < 1000 {
			t.Errorf("GET %s = %d, cache %q, %d bytes", u, resp.StatusCode, resp.Header.Get("Cache-Control"), len(asset))
		}
		if strings.HasSuffix(u, ".css") && !strings.Contains(asset, ".ch-title") {
			t.Error("the CSS bundle lacks the chart styles")
		}
	}
	if resp, _ := get(t, c, ts.URL+"/static/app.css"); resp.StatusCode != 404 {
		t.Errorf("unhashed name served: %d", resp.StatusCode)
	}
}

func TestNotFoundPages(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	for _, p := range []string{"/lessons/nope", "/labs/nope", "/nope/deeper", "/labs/nope/runs", "/static/x.css"} {
		resp, body := get(t, c, ts.URL+p)
		if resp.StatusCode != 404 {
			t.Errorf("GET %s = %d, want 404", p, resp.StatusCode)
		}
		if !strings.Contains(body, "Not found") || !strings.Contains(body, `href="/lessons"`) {
			t.Errorf("GET %s: not the 404 page: %.200s", p, body)
		}
	}
	resp, err := c.Post(ts.URL+"/labs/nope/run", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("POST unknown lab run = %d", resp.StatusCode)
	}
}

func TestUserTextIsEscaped(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	_, body := get(t, c, ts.URL+"/lessons/"+url.PathEscape(`<script>alert(1)</script>`))
	if strings.Contains(body, "<script>alert(1)") || !strings.Contains(body, "Not found") {
		t.Errorf("404 page does not escape the slug: %.300s", body)
	}
	resp := postForm(t, c, ts.URL+"/lessons/first-token/drill", url.Values{"answer": {`</textarea><script>alert("x")</script> ` + strings.Repeat("padding to reach the length a real attempt needs ", 6)}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("drill POST = %d", resp.StatusCode)
	}
	_, body = get(t, c, ts.URL+"/lessons/first-token")
	if strings.Contains(body, `<script>alert("x")`) || !strings.Contains(body, "&lt;/textarea&gt;&lt;script&gt;") {
		t.Errorf("drill answer not escaped")
	}
	if !strings.Contains(body, "Shorter prompts and less queueing.") || !strings.Contains(body, "prefill cost") {
		t.Error("model answer and rubric not revealed after answering")
	}
}

func postForm(t *testing.T, c *http.Client, u string, v url.Values) *http.Response {
	t.Helper()
	resp, err := c.PostForm(u, v)
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func TestProgressAndDrillFlow(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	_, body := get(t, c, ts.URL+"/lessons/first-token")
	if strings.Contains(body, "Shorter prompts") {
		t.Error("model answer shown before answering")
	}
	if resp := postForm(t, c, ts.URL+"/lessons/first-token/drill", url.Values{"answer": {"  "}}); resp.StatusCode != 422 {
		t.Errorf("empty answer = %d, want 422", resp.StatusCode)
	}
	if resp := postForm(t, c, ts.URL+"/lessons/batching/drill", url.Values{"answer": {"x"}}); resp.StatusCode != 404 {
		t.Errorf("answer to a lesson without a drill = %d, want 404", resp.StatusCode)
	}
	resp := postForm(t, c, ts.URL+"/lessons/first-token/done", url.Values{"done": {"1"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/lessons/first-token" {
		t.Fatalf("done POST = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, body = get(t, c, ts.URL+"/")
	if !strings.Contains(body, "<strong>1</strong> of 2 lessons done") || !strings.Contains(body, "Continue: Batching") {
		t.Errorf("home does not show progress 1 of 2")
	}
	// Another learner (fresh cookie jar) sees none of it.
	_, other := get(t, client(t), ts.URL+"/")
	if !strings.Contains(other, "<strong>0</strong> of 2") {
		t.Error("progress leaked to another learner")
	}
	postForm(t, c, ts.URL+"/lessons/first-token/done", url.Values{"done": {"0"}})
	if _, body = get(t, c, ts.URL+"/"); !strings.Contains(body, "<strong>0</strong> of 2") {
		t.Error("marking not done did not undo progress")
	}
	if resp := postForm(t, c, ts.URL+"/lessons/first-token/done", url.Values{"done": {"maybe"}}); resp.StatusCode != 400 {
		t.Errorf("done=maybe = %d, want 400", resp.StatusCode)
	}
	if resp := postForm(t, c, ts.URL+"/lessons/nope/done", nil); resp.StatusCode != 404 {
		t.Errorf("done on unknown lesson = %d, want 404", resp.StatusCode)
	}
}

func TestStateChangesArePostOnly(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	for _, p := range []string{"/lessons/first-token/done", "/lessons/first-token/drill", "/labs/ticker/run"} {
		resp, body := get(t, c, ts.URL+p)
		if resp.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(body, "Not allowed") {
			t.Errorf("GET %s = %d", p, resp.StatusCode)
		}
	}
}

func TestCrossOriginPostRefused(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	req, _ := http.NewRequest("POST", ts.URL+"/lessons/first-token/done", strings.NewReader("done=1"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin POST = %d, want 403", resp.StatusCode)
	}
}

func TestRateLimit(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.RateBurst = 2; c.RatePerSecond = 0.1 })
	ts := startHTTP(t, s)
	c := client(t)
	get(t, c, ts.URL+"/") // the cookie: POSTs without one save nothing
	for i := 0; i < 2; i++ {
		if resp := postForm(t, c, ts.URL+"/lessons/first-token/done", url.Values{"done": {"1"}}); resp.StatusCode != 303 {
			t.Fatalf("POST %d = %d", i, resp.StatusCode)
		}
	}
	resp, err := c.PostForm(ts.URL+"/lessons/first-token/done", url.Values{"done": {"1"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third POST = %d, want 429", resp.StatusCode)
	}
	if ra := resp.Header.Get("Retry-After"); ra != "10" || !strings.Contains(string(body), "Try again in 10 s") {
		t.Errorf("Retry-After %q, body %.300s", ra, body)
	}
	// Pages stay readable, and other learners are not limited.
	if r, _ := get(t, c, ts.URL+"/"); r.StatusCode != 200 {
		t.Errorf("GET while limited = %d", r.StatusCode)
	}
	other := client(t)
	get(t, other, ts.URL+"/")
	if r := postForm(t, other, ts.URL+"/lessons/first-token/done", url.Values{"done": {"1"}}); r.StatusCode != 303 {
		t.Errorf("another learner limited: %d", r.StatusCode)
	}
}

func TestLearnerCookie(t *testing.T) {
	s := newTestServer(t, nil)
	check := func(t *testing.T, ts *httptest.Server, c *http.Client, wantSecure bool) {
		resp, err := c.Get(ts.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var ck *http.Cookie
		for _, k := range resp.Cookies() {
			if k.Name == learnerCookie {
				ck = k
			}
		}
		if ck == nil {
			t.Fatal("no learner cookie")
		}
		if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Secure != wantSecure || !validLearnerID(ck.Value) {
			t.Errorf("cookie %+v; want HttpOnly, Lax, Path=/, Secure=%v, 32 hex", ck, wantSecure)
		}
	}
	t.Run("http", func(t *testing.T) {
		ts := httptest.NewServer(s.Handler())
		defer ts.Close()
		check(t, ts, ts.Client(), false)
	})
	t.Run("tls", func(t *testing.T) {
		ts := httptest.NewTLSServer(s.Handler())
		defer ts.Close()
		check(t, ts, ts.Client(), true)
	})
	t.Run("kept", func(t *testing.T) {
		ts := httptest.NewServer(s.Handler())
		defer ts.Close()
		req, _ := http.NewRequest("GET", ts.URL+"/", nil)
		req.AddCookie(&http.Cookie{Name: learnerCookie, Value: strings.Repeat("ab", 16)})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if len(resp.Cookies()) != 0 {
			t.Errorf("a valid cookie was replaced: %v", resp.Cookies())
		}
	})
}

func TestSecurityHeaders(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	for _, p := range []string{"/", "/labs/ticker", "/nope", "/healthz"} {
		resp, _ := get(t, client(t), ts.URL+p)
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "'unsafe-eval'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
			t.Errorf("%s CSP = %q", p, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" || h.Get("X-Request-ID") == "" {
			t.Errorf("%s headers = %v", p, h)
		}
	}
}

func TestBodyLimit(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	big := url.Values{"answer": {strings.Repeat("a", 70<<10)}}
	if resp := postForm(t, client(t), ts.URL+"/lessons/first-token/drill", big); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("70 KB POST = %d, want 413", resp.StatusCode)
	}
}

func TestPanicsDoNotLeak(t *testing.T) {
	s := newTestServer(t, nil)
	s.echo.GET("/boom", func(echo.Context) error { panic("secret internal detail") }, s.withLearner)
	ts := startHTTP(t, s)
	resp, body := get(t, client(t), ts.URL+"/boom")
	if resp.StatusCode != 500 || strings.Contains(body, "secret") || strings.Contains(body, "goroutine") || !strings.Contains(body, "Something went wrong") {
		t.Errorf("panic page = %d %.300s", resp.StatusCode, body)
	}
}

func TestHealthz(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	resp, body := get(t, client(t), ts.URL+"/healthz")
	if resp.StatusCode != 200 || !strings.Contains(body, `"ok"`) {
		t.Errorf("healthz = %d %s", resp.StatusCode, body)
	}
	if resp, err := http.Head(ts.URL + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Errorf("HEAD /healthz = %v, %v", resp, err)
	}
	s.store.Close()
	if resp, _ := get(t, client(t), ts.URL+"/healthz"); resp.StatusCode != 503 {
		t.Errorf("healthz with a closed store = %d", resp.StatusCode)
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []Config{
		{Addr: "nonsense"},
		{BodyLimit: 10},
		{MaxRuns: -1},
		{RunListSize: 500},
		{RateBurst: -3},
	}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil", c)
		}
	}
	if err := (Config{}).Validate(); err != nil {
		t.Errorf("zero config (all defaults) invalid: %v", err)
	}
}

func TestMountsAPIAndMetrics(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "api "+r.URL.Path) })
	met := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "metrics") })
	s := newTestServer(t, func(c *Config) { c.API, c.Metrics = api, met })
	ts := startHTTP(t, s)
	if _, body := get(t, client(t), ts.URL+"/v1/chat/completions"); body != "api /v1/chat/completions" {
		t.Errorf("/v1 = %q", body)
	}
	if _, body := get(t, client(t), ts.URL+"/metrics"); body != "metrics" {
		t.Errorf("/metrics = %q", body)
	}
	plain := newTestServer(t, nil)
	pts := startHTTP(t, plain)
	if resp, _ := get(t, client(t), pts.URL+"/metrics"); resp.StatusCode != 404 {
		t.Errorf("/metrics without a handler = %d", resp.StatusCode)
	}
}
