package web

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
)

// limiterStart is when the limiter tests' fake clock starts.
var limiterStart = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

func TestRunLimiterCaps(t *testing.T) {
	type try struct {
		learner, addr string
		want          limitKind // 0: allowed
	}
	tests := []struct {
		name  string
		tries []try
	}{
		{"per learner", []try{{"a", "1.1.1.1", 0}, {"a", "2.2.2.2", 0}, {"a", "3.3.3.3", limitLearner}, {"b", "3.3.3.3", 0}}},
		{"per address, cookies rotated", []try{{"a", "1.1.1.1", 0}, {"b", "1.1.1.1", 0}, {"c", "1.1.1.1", 0}, {"d", "1.1.1.1", limitAddr}}},
		{"per address, no cookie", []try{{"", "1.1.1.1", 0}, {"", "1.1.1.1", 0}, {"", "1.1.1.1", 0}, {"", "1.1.1.1", limitAddr}}},
		{"no cookie is no learner cap", []try{{"", "1.1.1.1", 0}, {"", "2.2.2.2", 0}, {"", "1.1.1.1", 0}}},
		{"total", []try{{"a", "1.1.1.1", 0}, {"b", "2.2.2.2", 0}, {"c", "3.3.3.3", 0}, {"d", "4.4.4.4", 0}, {"e", "5.5.5.5", limitTotal}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newRunLimiter(2, 3, 4, clocktest.NewJump(limiterStart))
			var releases []func()
			for i, tr := range tt.tries {
				release, refused := l.acquire(tr.learner, tr.addr)
				var got limitKind
				if refused != nil {
					got = refused.Kind
				} else {
					releases = append(releases, release)
				}
				if got != tr.want {
					t.Errorf("try %d (%q from %s): refused by %d, want %d", i, tr.learner, tr.addr, got, tr.want)
				}
			}
			for _, r := range releases {
				r()
				r() // a second call must not free a second slot
			}
			if len(l.active) != 0 || len(l.byLearner) != 0 || len(l.byAddr) != 0 {
				t.Errorf("after release: %d active, %v, %v", len(l.active), l.byLearner, l.byAddr)
			}
		})
	}
}

func TestRunLimiterRetryAfterFollowsRunLengths(t *testing.T) {
	tests := []struct {
		name     string
		finished []time.Duration // lengths of runs that ended before
		elapsed  time.Duration   // how long the blocking run has gone
		want     int
	}{
		{"no history: the 10 s guess", nil, 0, 10},
		{"part-way through the guess", nil, 4 * time.Second, 6},
		{"overdue runs say 1 s", nil, 30 * time.Second, 1},
		{"long runs, capped at a minute", []time.Duration{10 * time.Minute, 10 * time.Minute, 10 * time.Minute}, 0, 60},
		{"short runs", []time.Duration{2 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}, 0, 4}, // 10 s decays by a quarter a run: 3.4 s
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktest.NewJump(limiterStart)
			l := newRunLimiter(1, 1, 1, clock)
			for _, d := range tt.finished {
				release, refused := l.acquire("a", "1.1.1.1")
				if refused != nil {
					t.Fatal("refused with nothing running")
				}
				clock.Advance(d)
				release()
			}
			release, _ := l.acquire("a", "1.1.1.1")
			defer release()
			clock.Advance(tt.elapsed)
			_, refused := l.acquire("b", "2.2.2.2")
			if refused == nil || refused.Kind != limitTotal || refused.RetryAfter != tt.want {
				t.Errorf("refusal %+v, want total with Retry-After %d", refused, tt.want)
			}
		})
	}
}

func TestKeyedLimiterUndoGivesTheTokenBack(t *testing.T) {
	l := newKeyedLimiter(0.001, 1)
	now := limiterStart
	wait, undo := l.reserve("k", now)
	if wait != 0 || undo == nil {
		t.Fatalf("first reserve: wait %v", wait)
	}
	if wait, _ := l.reserve("k", now); wait == 0 {
		t.Fatal("a burst of 1 allowed two")
	}
	undo()
	if wait, _ := l.reserve("k", now); wait != 0 {
		t.Errorf("after undo: wait %v, want the token back", wait)
	}
}

func TestClientAddress(t *testing.T) {
	tests := []struct {
		name    string
		proxies []string
		remote  string
		xff     string
		want    string
	}{
		{"direct v4", nil, "203.0.113.7:5555", "", "203.0.113.7"},
		{"XFF ignored without trusted proxies", nil, "203.0.113.7:5555", "198.51.100.1", "203.0.113.7"},
		{"XFF ignored from an untrusted peer", []string{"10.0.0.0/8"}, "203.0.113.7:5555", "198.51.100.1", "203.0.113.7"},
		{"XFF from a trusted proxy", []string{"10.0.0.0/8"}, "10.1.2.3:5555", "198.51.100.1", "198.51.100.1"},
		{"the nearest untrusted hop, not a forged first one", []string{"10.0.0.0/8"}, "10.1.2.3:5555", "1.2.3.4, 198.51.100.1, 10.9.9.9", "198.51.100.1"},
		{"private peers are not trusted by default", nil, "192.168.1.5:5555", "198.51.100.1", "192.168.1.5"},
		{"a bare proxy IP", []string{"10.1.2.3"}, "10.1.2.3:5555", "198.51.100.1", "198.51.100.1"},
		{"v6 keyed per /64", nil, "[2001:db8:1:2:aaaa::1]:5555", "", "2001:db8:1:2::/64"},
		{"v6 neighbours share the /64", nil, "[2001:db8:1:2:bbbb::9]:5555", "", "2001:db8:1:2::/64"},
		{"v4-mapped v6 is v4", nil, "[::ffff:203.0.113.7]:5555", "", "203.0.113.7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := parseProxies(tt.proxies)
			if err != nil {
				t.Fatal(err)
			}
			e := echo.New()
			e.IPExtractor = ps.ipExtractor()
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			if tt.xff != "" {
				r.Header.Set("X-Forwarded-For", tt.xff)
			}
			if got := clientAddr(e.NewContext(r, httptest.NewRecorder())); got != tt.want {
				t.Errorf("client address %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseProxiesRefusesJunk(t *testing.T) {
	for _, bad := range []string{"10.0.0.0/33", "example.org", "", "10.0.0.1/8/8"} {
		if _, err := parseProxies([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
