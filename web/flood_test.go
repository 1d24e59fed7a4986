package web

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// learnerRows counts learner rows in the server's SQLite file, read
// through a connection of its own.
func learnerRows(t *testing.T, s *testServer) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+s.cfg.DBPath+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM learners`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

var retryInRe = regexp.MustCompile(`[Tt]ry again in (\d+) s`)

// tally counts statuses, and checks every 429 says when to retry, on the
// wire and in the words.
type tally struct {
	byStatus map[int]int
	problems []string
}

func (ty *tally) add(resp *http.Response, body string) {
	if ty.byStatus == nil {
		ty.byStatus = map[int]int{}
	}
	ty.byStatus[resp.StatusCode]++
	if resp.StatusCode != http.StatusTooManyRequests {
		return
	}
	m := retryInRe.FindStringSubmatch(body)
	if ra := resp.Header.Get("Retry-After"); ra == "" || m == nil || m[1] != ra {
		ty.problems = append(ty.problems, fmt.Sprintf("429 with Retry-After %q and body %.200q", ra, body))
	}
}

func randomCookie() *http.Cookie { return &http.Cookie{Name: learnerCookie, Value: randomHex(16)} }

// TestPostFloodsHitTheAddressLimit floods a lesson POST from one address,
// without a cookie and with a fresh one each time: the address's burst
// passes the rate limit, the rest get 429 with when to retry, and no
// cookie-less POST writes a row.
func TestPostFloodsHitTheAddressLimit(t *testing.T) {
	const burst, flood = 5, 60
	tests := []struct {
		name       string
		cookie     func() *http.Cookie
		passStatus int // what the requests inside the burst get
		maxRows    int
	}{
		{"no cookie", func() *http.Cookie { return nil }, http.StatusBadRequest, 0},
		{"a new cookie each time", randomCookie, http.StatusSeeOther, burst},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, func(c *Config) { c.Limits.AddrRateBurst, c.Limits.AddrRatePerSecond = burst, 0.01 })
			ts := startHTTP(t, s)
			noJar := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			var ty tally
			for range flood {
				req, _ := http.NewRequest("POST", ts.URL+"/lessons/first-token/done", strings.NewReader("done=1"))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				if ck := tt.cookie(); ck != nil {
					req.AddCookie(ck)
				}
				resp, err := noJar.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				ty.add(resp, string(b))
				if resp.StatusCode == http.StatusBadRequest && !strings.Contains(string(b), "did not send this site&#39;s cookie") {
					t.Errorf("cookie-less POST refused without saying why: %.300s", b)
				}
			}
			if ty.byStatus[tt.passStatus] != burst || ty.byStatus[http.StatusTooManyRequests] != flood-burst || len(ty.problems) > 0 {
				t.Errorf("statuses %v, want %d × %d and %d × 429; %v", ty.byStatus, burst, tt.passStatus, flood-burst, ty.problems)
			}
			if n := learnerRows(t, s); n > tt.maxRows {
				t.Errorf("%d learner rows, want at most %d", n, tt.maxRows)
			}
		})
	}
}

// TestRunFloodsHitTheRunCaps starts long lab runs until a cap refuses, the
// refusals landing in the lab's error box with 429 and Retry-After.
func TestRunFloodsHitTheRunCaps(t *testing.T) {
	const flood = 10
	tests := []struct {
		name     string
		perAddr  int
		total    int
		addr     func(i int) string // X-Forwarded-For through the trusted test proxy
		cookie   func() *http.Cookie
		accepted int
		message  string
	}{
		{"no cookie, one address", 2, 8, func(int) string { return "198.51.100.1" }, func() *http.Cookie { return nil },
			2, "Too many runs are going from your network right now."},
		{"rotating cookies, one address", 2, 8, func(int) string { return "198.51.100.1" }, randomCookie,
			2, "Too many runs are going from your network right now."},
		{"rotating cookies and addresses", 2, 3, func(i int) string { return fmt.Sprintf("198.51.100.%d", i+1) }, randomCookie,
			3, "The lab is busy, try again in"},
		{"v6 rotating inside a /64", 2, 8, func(i int) string { return fmt.Sprintf("2001:db8::%x", i+1) }, func() *http.Cookie { return nil },
			2, "Too many runs are going from your network right now."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, func(c *Config) {
				c.Limits.MaxRunsPerAddr, c.Limits.MaxRunsTotal = tt.perAddr, tt.total
				c.Limits.TrustedProxies = []string{"127.0.0.1"}
			})
			ts := startHTTP(t, s)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var ty tally
			var running []*http.Response
			for i := range flood {
				req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/labs/ticker/run",
					strings.NewReader(`{"labTicker":{"steps":400,"gapMs":100}}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Datastar-Request", "true")
				req.Header.Set("X-Forwarded-For", tt.addr(i))
				if ck := tt.cookie(); ck != nil {
					req.AddCookie(ck)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode == http.StatusOK {
					running = append(running, resp) // headers arrive once the slot is held
					ty.add(resp, "")
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				ty.add(resp, string(b))
				if !strings.Contains(string(b), tt.message) || !strings.Contains(string(b), "#lab-ticker-error") {
					t.Errorf("refusal %d without %q in the error box: %.300s", resp.StatusCode, tt.message, b)
				}
			}
			if ty.byStatus[http.StatusOK] != tt.accepted || ty.byStatus[http.StatusTooManyRequests] != flood-tt.accepted || len(ty.problems) > 0 {
				t.Errorf("statuses %v, want %d running and %d × 429; %v", ty.byStatus, tt.accepted, flood-tt.accepted, ty.problems)
			}
			cancel()
			for _, r := range running {
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
			}
		})
	}
}

// TestCookielessRunIsShownNotSaved runs a lab without a cookie: the run
// streams to its end, says it was not saved, and writes no row.
func TestCookielessRunIsShownNotSaved(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	resp := postRun(t, context.Background(), http.DefaultClient, ts.URL, `{"labTicker":{"steps":3,"gapMs":1}}`)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "Done: words") || !strings.Contains(string(b), "This run was not saved") {
		t.Errorf("status %d, body %.500s", resp.StatusCode, b)
	}
	if n := learnerRows(t, s); n != 0 {
		t.Errorf("%d learner rows after a cookie-less run", n)
	}
}

// TestChatSharesTheGlobalCap fills the one run slot with a lab run: a chat
// question is then refused in the chat's error box, saying when to retry.
func TestChatSharesTheGlobalCap(t *testing.T) {
	s, ts := newChatServer(t, nil, func(c *Config) { c.Limits.MaxRunsTotal = 1 })
	c := client(t)
	get(t, c, ts.URL+"/chat")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := postRun(t, ctx, client(t), ts.URL, `{"labTicker":{"steps":400,"gapMs":100}}`)
	defer run.Body.Close()
	<-s.lab.started
	resp := chatPost(t, context.Background(), c, ts.URL+"/chat/send", "", "How long do refunds take?")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var ty tally
	ty.add(resp, string(b))
	if resp.StatusCode != http.StatusTooManyRequests || len(ty.problems) > 0 ||
		!strings.Contains(string(b), "The lab is busy, try again in") || !strings.Contains(string(b), "#chat-error") {
		t.Errorf("chat while busy: %d %v %.400s", resp.StatusCode, ty.problems, b)
	}
}

// TestCookielessPostsWriteNoRows sends every state-changing route a POST
// without the cookie: each is refused with a reason or (a lab run) served
// unsaved, and the learners table stays empty.
func TestCookielessPostsWriteNoRows(t *testing.T) {
	s, ts := newChatServer(t, nil, nil)
	tests := []struct {
		path, ctype, body string
		status            int
		says              string
	}{
		{"/lessons/first-token/done", "application/x-www-form-urlencoded", "done=1", http.StatusBadRequest, "did not send this site&#39;s cookie"},
		{"/lessons/first-token/drill", "application/x-www-form-urlencoded", "answer=prefill", http.StatusBadRequest, "did not send this site&#39;s cookie"},
		{"/chat/new", "application/x-www-form-urlencoded", "", http.StatusBadRequest, "did not send this site&#39;s cookie"},
		{"/chat/send", "application/json", `{"chatInput":"How long do refunds take?","chatConv":""}`, http.StatusBadRequest, "#chat-error"},
		{"/labs/ticker/run", "application/json", `{"labTicker":{"steps":2,"gapMs":1}}`, http.StatusOK, "This run was not saved"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, body := postWith(t, http.DefaultClient, ts.URL+tt.path, tt.ctype, tt.body, map[string]string{"Datastar-Request": "true"})
			if resp.StatusCode != tt.status || !strings.Contains(body, tt.says) {
				t.Errorf("status %d, want %d with %q: %.400s", resp.StatusCode, tt.status, tt.says, body)
			}
		})
	}
	if n := learnerRows(t, s); n != 0 {
		t.Errorf("%d learner rows after cookie-less POSTs", n)
	}
}
