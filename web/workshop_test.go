package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// openWorkshop creates a workshop as a fresh instructor and returns the
// instructor's client and the join code.
func openWorkshop(t *testing.T, base, name string) (*http.Client, string) {
	t.Helper()
	inst := client(t)
	get(t, inst, base+"/workshops/new") // the learner cookie
	resp := postForm(t, inst, base+"/workshops", url.Values{"name": {name}})
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/workshops/") || !strings.HasSuffix(loc, "/board") {
		t.Fatalf("create: %d %q, want 303 to /workshops/{code}/board", resp.StatusCode, loc)
	}
	code := strings.TrimSuffix(strings.TrimPrefix(loc, "/workshops/"), "/board")
	if !validCode(code) {
		t.Fatalf("code %q is not six unambiguous characters", code)
	}
	return inst, code
}

// joinWorkshop joins as name with a fresh learner; it returns the client
// and the response to POST /join.
func joinWorkshop(t *testing.T, base, code, name string) (*http.Client, *http.Response) {
	t.Helper()
	c := client(t)
	get(t, c, base+"/join")
	return c, postForm(t, c, base+"/join", url.Values{"code": {code}, "name": {name}})
}

func TestWorkshopCreateAndInstructorAccess(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, code := openWorkshop(t, ts.URL, "Tuesday <cohort>")
	resp, body := get(t, inst, ts.URL+"/workshops/"+code+"/board")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Tuesday &lt;cohort&gt;") || !strings.Contains(body, code) || !strings.Contains(body, `id="ws-qr"`) {
		t.Fatalf("instructor board: %d; want 200 with the escaped name, the code and its QR code", resp.StatusCode)
	}
	i := strings.Index(body, "board?key=")
	if i < 0 {
		t.Fatal("board shows no instructor link")
	}
	key := body[i+len("board?key=") : i+len("board?key=")+strings.IndexByte(body[i+len("board?key="):], '"')]

	learner, _ := joinWorkshop(t, ts.URL, code, "Ana")
	projector := client(t)
	tests := []struct {
		name   string
		c      *http.Client
		path   string
		status int
	}{
		{"a learner asks for the board", learner, "/workshops/" + code + "/board", http.StatusForbidden},
		{"a learner asks for the export", learner, "/workshops/" + code + "/export.csv", http.StatusForbidden},
		{"a wrong instructor key", projector, "/workshops/" + code + "/board?key=AAAAAAAAAAAAAAAAAAAAAA", http.StatusForbidden},
		{"an unknown code", inst, "/workshops/ZZZZZZ/board", http.StatusNotFound},
		{"the private link on another device", projector, "/workshops/" + code + "/board?key=" + key, http.StatusSeeOther},
		{"that device afterwards", projector, "/workshops/" + code + "/board", http.StatusOK},
	}
	for _, tc := range tests {
		resp, body := get(t, tc.c, ts.URL+tc.path)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
		if tc.status == http.StatusForbidden && !strings.Contains(body, "instructor") {
			t.Errorf("%s: the 403 page does not say the board is the instructor's", tc.name)
		}
	}
	// The secret is never stored as given.
	ws, err := s.store.GetWorkshop(context.Background(), code)
	if err != nil || ws.SecretHash == key || ws.SecretHash != hashSecret(key) || ws.SizeCap != 300 {
		t.Fatalf("stored workshop %+v, %v: want the secret's hash and the default cap", ws, err)
	}
}

func TestWorkshopJoinRefusals(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.Workshops.SizeCap = 2 })
	ts := startHTTP(t, s)
	inst, code := openWorkshop(t, ts.URL, "Small room")
	_, ended := openWorkshop(t, ts.URL, "Over")
	postForm(t, inst, ts.URL+"/workshops/"+ended+"/end", nil) // not this instructor's: refused
	if ws, _ := s.store.GetWorkshop(context.Background(), ended); ws.Ended() {
		t.Fatal("another instructor ended a workshop that is not theirs")
	}
	endInst, ended2 := openWorkshop(t, ts.URL, "Finished")
	if resp := postForm(t, endInst, ts.URL+"/workshops/"+ended2+"/end", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("end: %d, want 303", resp.StatusCode)
	}
	tests := []struct {
		name, code, member string
		status             int
		say                string
	}{
		{"first learner", code, "  Ana   Lima ", http.StatusSeeOther, ""},
		{"lower-case code with a dash", strings.ToLower(code[:3] + "-" + code[3:]), "Ana Lima", http.StatusSeeOther, ""},
		{"room full", code, "Cy", http.StatusConflict, "full"},
		{"unknown code", "ZZZZZ2", "Bo", http.StatusNotFound, "No workshop has that code"},
		{"empty code", "  ", "Bo", http.StatusUnprocessableEntity, "The code is empty"},
		{"empty name", code, "   ", http.StatusUnprocessableEntity, "empty"},
		{"oversized name", code, strings.Repeat("n", 41), http.StatusUnprocessableEntity, "keep it to 40"},
		{"ended workshop", ended2, "Di", http.StatusGone, "ended"},
	}
	for _, tc := range tests {
		c, resp := joinWorkshop(t, ts.URL, tc.code, tc.member)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.status)
			continue
		}
		if tc.status == http.StatusSeeOther {
			if loc := resp.Header.Get("Location"); loc != "/workshops/"+code {
				t.Errorf("%s: redirect to %q", tc.name, loc)
			}
			_, body := get(t, c, ts.URL+"/workshops/"+code)
			if !strings.Contains(body, "Small room") {
				t.Errorf("%s: learner page lacks the banner", tc.name)
			}
			continue
		}
		resp2, err := c.PostForm(ts.URL+"/join", url.Values{"code": {tc.code}, "name": {tc.member}})
		if err != nil {
			t.Fatal(err)
		}
		b := new(strings.Builder)
		_, _ = io_Copy(b, resp2)
		if !strings.Contains(b.String(), tc.say) {
			t.Errorf("%s: page does not say %q", tc.name, tc.say)
		}
	}
	ms, _ := s.store.Members(context.Background(), code)
	if len(ms) != 2 || ms[0].Name != "Ana Lima" || ms[1].Name != "Ana Lima 2" {
		t.Fatalf("members = %+v; want the trimmed name and a suffixed twin", ms)
	}
	// A page for a non-member sends them to join.
	stranger := client(t)
	if resp, _ := get(t, stranger, ts.URL+"/workshops/"+code); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/join/"+code {
		t.Errorf("non-member page: %d %q, want 303 to /join/%s", resp.StatusCode, resp.Header.Get("Location"), code)
	}
}

func TestWorkshopCodesExpire(t *testing.T) {
	clock := &steppedClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	s := newTestServer(t, func(c *Config) { c.Clock = clock; c.Workshops.JoinWindow = time.Hour })
	ts := startHTTP(t, s)
	_, code := openWorkshop(t, ts.URL, "Morning")
	early, resp := joinWorkshop(t, ts.URL, code, "Ana")
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("join within the window: %d", resp.StatusCode)
	}
	clock.advance(61 * time.Minute)
	if _, resp := joinWorkshop(t, ts.URL, code, "Bo"); resp.StatusCode != http.StatusGone {
		t.Errorf("join after the window: %d, want 410", resp.StatusCode)
	}
	if resp := postForm(t, early, ts.URL+"/join", url.Values{"code": {code}, "name": {"Ana"}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a member coming back after the window: %d, want 303", resp.StatusCode)
	}
}

// steppedClock is a clock tests move by hand.
type steppedClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *steppedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}
func (c *steppedClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (c *steppedClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestWorkshopWrongCodesAreRateLimited(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.Workshops.JoinFailBurst = 3; c.Workshops.JoinFailRate = 0.001 })
	ts := startHTTP(t, s)
	_, code := openWorkshop(t, ts.URL, "Guarded")
	for i, want := range []int{404, 404, 404, 429} {
		if _, resp := joinWorkshop(t, ts.URL, "ZZZZZ"+string("2345"[i]), "Eve"); resp.StatusCode != want {
			t.Errorf("wrong code %d: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	// Once the allowance is spent even the right code waits: the limiter
	// cannot tell a lucky guess from a learner.
	if _, resp := joinWorkshop(t, ts.URL, code, "Ana"); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("after the allowance: %d, want 429 with Retry-After", resp.StatusCode)
	}
}

func TestWorkshopPushValidation(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, code := openWorkshop(t, ts.URL, "Push room")
	learner, _ := joinWorkshop(t, ts.URL, code, "Ana")
	push := "/workshops/" + code + "/push"
	tests := []struct {
		name       string
		c          *http.Client
		path       string
		form       url.Values
		status     int
		wantRound  int64
		wantPreset string
	}{
		{"learner pushes", learner, push, url.Values{"lab": {"ticker"}, "preset": {"Quick"}}, http.StatusForbidden, 0, ""},
		{"unknown lab", inst, push, url.Values{"lab": {"nope"}, "preset": {"Quick"}}, http.StatusUnprocessableEntity, 0, ""},
		{"unknown preset", inst, push, url.Values{"lab": {"ticker"}, "preset": {"Slow"}}, http.StatusUnprocessableEntity, 0, ""},
		{"everyone runs before any push", inst, "/workshops/" + code + "/runall", nil, http.StatusUnprocessableEntity, 0, ""},
		{"good push", inst, push, url.Values{"lab": {"ticker"}, "preset": {"Long"}}, http.StatusSeeOther, 1, "Long"},
		{"learner sets the load", learner, "/workshops/" + code + "/settings", url.Values{"load": {"5"}}, http.StatusForbidden, 1, "Long"},
		{"load off the dial", inst, "/workshops/" + code + "/settings", url.Values{"load": {"500"}, "predictions": {"closed"}}, http.StatusUnprocessableEntity, 1, "Long"},
		{"bad switch", inst, "/workshops/" + code + "/settings", url.Values{"reveal": {"maybe"}}, http.StatusUnprocessableEntity, 1, "Long"},
		{"learner makes everyone run", learner, "/workshops/" + code + "/runall", nil, http.StatusForbidden, 1, "Long"},
		{"learner ends it", learner, "/workshops/" + code + "/end", nil, http.StatusForbidden, 1, "Long"},
	}
	for _, tc := range tests {
		if resp := postForm(t, tc.c, ts.URL+tc.path, tc.form); resp.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
		ws, _ := s.store.GetWorkshop(context.Background(), code)
		if ws.PushSeq != tc.wantRound || ws.PushedPreset != tc.wantPreset || ws.Locked() || ws.LoadRPS != 0 || ws.Ended() {
			t.Errorf("%s: saved %+v; nothing may change half-way", tc.name, ws)
		}
	}
	_, body := get(t, learner, ts.URL+"/workshops/"+code)
	if !strings.Contains(body, `?w=`+code) || !strings.Contains(body, `&#34;steps&#34;:40`) || !strings.Contains(body, "Ticker lab · Long") {
		t.Error("learner page does not show the pushed lab set to its preset, posting to the room")
	}
}

func TestWorkshopLearnerFollowsAPushAndRunsAreRecorded(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, code := openWorkshop(t, ts.URL, "Live room")
	learner, _ := joinWorkshop(t, ts.URL, code, "Ana")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/workshops/"+code+"/events?round=0", nil)
	resp, err := learner.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("learner events: %v %v", resp, err)
	}
	defer resp.Body.Close()
	got := make(chan time.Time, 1)
	go readEvents(resp.Body, func(ev sseEvent) bool {
		if ev.selector() == "#ws-stage" && strings.Contains(ev.html(), "Ticker lab") {
			got <- time.Now()
			return false
		}
		return true
	})
	time.Sleep(50 * time.Millisecond) // let the stream subscribe
	pushed := time.Now()
	postForm(t, inst, ts.URL+"/workshops/"+code+"/push", url.Values{"lab": {"ticker"}, "preset": {"Quick"}})
	select {
	case at := <-got:
		if d := at.Sub(pushed); d > time.Second {
			t.Errorf("the learner saw the push after %v, want within a second", d)
		}
	case <-ctx.Done():
		t.Fatal("the learner never saw the push")
	}

	// A run from the workshop page is recorded against the room.
	body := `{"labTicker":{"steps":3,"gapMs":50,"mode":"words","loud":false},"labTickerGuess":"5"}` // the Quick preset
	rreq, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/labs/ticker/run?w="+code, strings.NewReader(body))
	rreq.Header.Set("Content-Type", "application/json")
	rreq.Header.Set("Datastar-Request", "true")
	rresp, err := learner.Do(rreq)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io_Copy(new(strings.Builder), rresp)
	eresp, err := inst.Get(ts.URL + "/workshops/" + code + "/export.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer eresp.Body.Close()
	rows, err := csv.NewReader(eresp.Body).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("export: %d rows, %v; want a header and one run", len(rows), err)
	}
	row := map[string]string{}
	for i, h := range rows[0] {
		row[h] = rows[1][i]
	}
	if row["name"] != "Ana" || row["lab"] != "ticker" || row["preset"] != "Quick" || row["prediction"] != "5" || row["measured"] != "50" || row["round"] != "1" {
		t.Errorf("export row = %v", row)
	}
	_, board := get(t, inst, ts.URL+"/workshops/"+code+"/board")
	if !strings.Contains(board, "Closest: Ana") {
		t.Error("board does not set the guess against the result")
	}
	// Results reach learners only once revealed; a stranger's stream is refused.
	if _, page := get(t, learner, ts.URL+"/workshops/"+code); strings.Contains(page, "Closest: Ana") {
		t.Error("the learner saw the room's results before the reveal")
	}
	postForm(t, inst, ts.URL+"/workshops/"+code+"/settings", url.Values{"reveal": {"on"}, "predictions": {"closed"}})
	if _, page := get(t, learner, ts.URL+"/workshops/"+code); !strings.Contains(page, "Closest: Ana") || !strings.Contains(page, "Predictions are closed") {
		t.Error("after the reveal and the lock the learner page lacks the results or the lock notice")
	}
	// With predictions closed, a run still runs but its guess is not kept.
	lreq, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/labs/ticker/run?w="+code,
		strings.NewReader(`{"labTicker":{"steps":3,"gapMs":1,"mode":"words","loud":false},"labTickerGuess":"7"}`))
	lreq.Header.Set("Content-Type", "application/json")
	lreq.Header.Set("Datastar-Request", "true")
	lresp, err := learner.Do(lreq)
	if err != nil {
		t.Fatal(err)
	}
	var late strings.Builder
	_, _ = io_Copy(&late, lresp)
	if !strings.Contains(late.String(), "Predictions are closed for this round") {
		t.Error("a guess sent after the lock was not refused on the page")
	}
	eresp2, err := inst.Get(ts.URL + "/workshops/" + code + "/export.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer eresp2.Body.Close()
	rows2, err := csv.NewReader(eresp2.Body).ReadAll()
	if err != nil || len(rows2) != 3 {
		t.Fatalf("export after the locked run: %d rows, %v; want a header and two runs", len(rows2), err)
	}
	for i, h := range rows2[0] {
		if h == "prediction" && rows2[2][i] != "" && rows2[1][i] != "" {
			t.Errorf("both runs have a prediction (%q, %q): the guess sent after the lock was recorded", rows2[1][i], rows2[2][i])
		}
	}
	if resp, body := get(t, client(t), ts.URL+"/workshops/"+code+"/events"); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Join the workshop first") {
		t.Errorf("a stranger's stream: %d, want 403 saying to join", resp.StatusCode)
	}
}

func TestWorkshopSurvivesRestart(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, code := openWorkshop(t, ts.URL, "Durable")
	learner, _ := joinWorkshop(t, ts.URL, code, "Ana")
	postForm(t, inst, ts.URL+"/workshops/"+code+"/push", url.Values{"lab": {"ticker"}, "preset": {"Long"}})
	postForm(t, inst, ts.URL+"/workshops/"+code+"/settings", url.Values{"load": {"2.5"}})
	ts.Close()
	s.Close()

	s2 := newTestServer(t, func(c *Config) { c.DBPath = s.cfg.DBPath })
	ts2 := startHTTP(t, s2)
	_, board := get(t, inst, ts2.URL+"/workshops/"+code+"/board")
	if !strings.Contains(board, "Ticker lab") || !strings.Contains(board, "Long") || !strings.Contains(board, `value="2.5"`) || !strings.Contains(board, "Ana") {
		t.Error("after a restart the board lost the push, the load or the roster")
	}
	if _, page := get(t, learner, ts2.URL+"/workshops/"+code); !strings.Contains(page, "Ticker lab · Long") {
		t.Error("after a restart the learner's page lost the push")
	}
}

func TestCSVSafeDisarmsFormulas(t *testing.T) {
	for in, want := range map[string]string{"=1+1": "'=1+1", "@SUM": "'@SUM", "-3": "'-3", "Ana": "Ana", "": ""} {
		if got := csvSafe(in); got != want {
			t.Errorf("csvSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

func io_Copy(b *strings.Builder, resp *http.Response) (int64, error) {
	defer resp.Body.Close()
	return io.Copy(b, resp.Body)
}

func TestJoinQRIsAPNG(t *testing.T) {
	u := joinQR("http://127.0.0.1:8080/join/ABC234")
	png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(u, "data:image/png;base64,"))
	if !strings.HasPrefix(u, "data:image/png;base64,") || err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("joinQR = %.60q…, %v; want a PNG data URL", u, err)
	}
}

func TestWorkshopBoardStreamFollowsTheRoom(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, code := openWorkshop(t, ts.URL, "Streamed")
	if resp := postForm(t, inst, ts.URL+"/workshops", url.Values{"name": {"   "}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a blank workshop name: %d, want 422", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/workshops/"+code+"/board/events", nil)
	resp, err := inst.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("board events: %v %v", resp, err)
	}
	defer resp.Body.Close()
	joined := make(chan string, 8)
	go readEvents(resp.Body, func(ev sseEvent) bool {
		if ev.selector() == "#ws-counts" {
			joined <- ev.html()
		}
		return true
	})
	select {
	case first := <-joined:
		if !strings.Contains(first, `id="ws-joined">0<`) {
			t.Fatalf("first board counts: %s", first)
		}
	case <-ctx.Done():
		t.Fatal("the board stream sent nothing")
	}
	joinWorkshop(t, ts.URL, code, "Ana <b>")
	select {
	case html := <-joined:
		if !strings.Contains(html, `id="ws-joined">1<`) {
			t.Errorf("after a join the board counts %s", html)
		}
	case <-ctx.Done():
		t.Fatal("the board never showed the join")
	}
	_, board := get(t, inst, ts.URL+"/workshops/"+code+"/board")
	if strings.Contains(board, "Ana <b>") || !strings.Contains(board, "Ana &lt;b&gt;") {
		t.Error("a learner's name is not escaped on the board")
	}
}
