package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the test reads the server's file directly
)

// crashLearners is how many chat answers stream when the server is killed.
const crashLearners = 20

// crashMinWords is how much every answer must have shown before the kill.
// The pipeline saves a growing answer every 32 tokens (one upstream chunk
// is one token here) or every second, whichever comes first, so each has
// been saved at least once.
const crashMinWords = 40

// crashMaxLag bounds how far the saved answer may trail the screen: one
// save interval (32 tokens, or a second's 25 words) and a patch or two.
const crashMaxLag = 32 + 4

// TestCrashKeepsTheTurnsInFlight builds the real binary, streams 20 chat
// answers from a slow upstream model at once, kills the server with SIGKILL
// mid-answer, restarts it on the same file and checks that every question
// and every partial answer is there, the answers marked interrupted (in
// SQLite and in the chat page), and that the file passes integrity_check.
func TestCrashKeepsTheTurnsInFlight(t *testing.T) {
	if os.Getenv("LATENCYLAB_E2E") != "1" {
		t.Skip("crash test: set LATENCYLAB_E2E=1 to build the binary, kill it mid-answer and restart it (go test ./cmd/latencylab -run Crash)")
	}
	bin := buildBinary(t)
	up := slowUpstream(t)
	db := filepath.Join(t.TempDir(), "crash.db")

	srv := startBinary(t, bin, db, up.URL+"/v1")
	learners := make([]*crashLearner, crashLearners)
	for i := range learners {
		learners[i] = newCrashLearner(t, srv.url, i)
	}
	started := time.Now()
	for _, l := range learners {
		go l.ask(fmt.Sprintf("How long do refunds take? (learner %d)", l.n))
	}
	waitFor(t, 20*time.Second, "every answer to show some text", func() bool {
		for _, l := range learners {
			if l.words() < crashMinWords {
				return false
			}
		}
		return true
	})
	srv.kill(t)
	killedAfter := time.Since(started)
	for _, l := range learners {
		l.wait(t)
	}

	// Before the restart the answers are still "streaming": the restart is
	// what marks them.
	if n := countStatus(t, db, "streaming"); n != crashLearners {
		t.Errorf("after the kill %d answers are saved streaming, want %d", n, crashLearners)
	}

	srv2 := startBinary(t, bin, db, up.URL+"/v1")
	defer srv2.stop(t)
	var questions, partials int
	var lengths, lags []int
	for _, l := range learners {
		rows := messagesOf(t, db, l.conv)
		if len(rows) != 2 {
			t.Errorf("learner %d: %d messages saved, want the question and the partial answer: %+v", l.n, len(rows), rows)
			continue
		}
		q, a := rows[0], rows[1]
		if q.role == "user" && q.content == l.question && q.status == "complete" {
			questions++
		} else {
			t.Errorf("learner %d: question saved as %+v", l.n, q)
		}
		words := strings.Fields(a.content)
		shown := strings.Fields(l.shown())
		if a.role != "assistant" || a.status != "interrupted" || len(words) == 0 || !slices.Equal(words, upstreamWords(len(words))) {
			t.Errorf("learner %d: answer saved as %s %s with %d words %.60q, want interrupted with the words w0 w1 ...",
				l.n, a.role, a.status, len(words), a.content)
			continue
		}
		if lag := len(shown) - len(words); lag > crashMaxLag {
			t.Errorf("learner %d: saved %d words, %d behind the %d on screen (want at most %d)", l.n, len(words), lag, len(shown), crashMaxLag)
		}
		// What was saved and what reached the screen are the same words,
		// one ahead of the other by at most a save interval or a patch.
		if n := min(len(words), len(shown)); !slices.Equal(words[:n], shown[:n]) {
			t.Errorf("learner %d: saved %.60q but the screen showed %.60q", l.n, a.content, l.shown())
		}
		partials++
		lengths = append(lengths, len(words))
		lags = append(lags, len(shown)-len(words))
		_, page := l.get(t, srv2.url+"/chat/"+l.conv)
		if !strings.Contains(page, `data-status="interrupted"`) || !strings.Contains(page, "the server stopped while this answer was streaming") {
			t.Errorf("learner %d: the chat page does not show the answer as cut off", l.n)
		}
	}
	if n := countStatus(t, db, "streaming"); n != 0 {
		t.Errorf("after the restart %d answers are still streaming", n)
	}
	var check string
	if err := openDB(t, db).QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
	slices.Sort(lengths)
	slices.Sort(lags)
	t.Logf("killed after %v; questions found %d/%d, partial answers found %d/%d (interrupted), words saved min %d median %d max %d; "+
		"shown on screen at the kill min %d; saved trails the screen by min %d max %d words",
		killedAfter.Round(time.Millisecond), questions, crashLearners, partials, crashLearners,
		at(lengths, 0), at(lengths, len(lengths)/2), at(lengths, len(lengths)-1), minShown(learners), at(lags, 0), at(lags, len(lags)-1))
}

// slowUpstream is an OpenAI-compatible server whose chat answers never end
// on their own: a word every 40 ms ("w0 w1 w2 ..."), until the client goes.
func slowUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"object":"list","data":[{"id":"slow","object":"model"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		chunk := func(delta map[string]any) bool {
			b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "slow",
				"choices": []any{map[string]any{"index": 0, "delta": delta}}})
			if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
				return false
			}
			fl.Flush()
			return true
		}
		if !chunk(map[string]any{"role": "assistant", "content": ""}) {
			return
		}
		for i := 0; i < 5000; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(40 * time.Millisecond):
			}
			text := fmt.Sprintf(" w%d", i)
			if i == 0 {
				text = "w0"
			}
			if !chunk(map[string]any{"content": text}) {
				return
			}
		}
		io.WriteString(w, "data: [DONE]\n\n")
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func upstreamWords(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("w%d", i)
	}
	return out
}

// startBinary runs `latencylab serve` with the slow upstream, with the
// run caps raised above the 20 answers this test streams from one machine.
func startBinary(t *testing.T, bin, db, upstreamURL string) *binary {
	t.Helper()
	return runBinary(t, bin, []string{"--db", db, "--upstream-url", upstreamURL, "--upstream-model", "slow"}, crashTestLimits)
}

// crashTestLimits lifts the server's run caps (--max-runs-total and
// --max-runs-per-addr, through their env fallbacks, so the test also runs
// against a binary without them): 20 answers at once is the point of it.
var crashTestLimits = []string{
	"LATENCYLAB_MAX_RUNS=64", "LATENCYLAB_MAX_RUNS_PER_ADDR=64",
}

// crashLearner is one browser: its own cookie jar, its own loopback
// address (so per-address limits count each learner apart), its own
// conversation.
type crashLearner struct {
	n        int
	base     string
	c        *http.Client
	conv     string
	question string

	mu       sync.Mutex
	lastText string
	ended    chan struct{}
}

func newCrashLearner(t *testing.T, base string, n int) *crashLearner {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+n))}}
	l := &crashLearner{n: n, base: base, ended: make(chan struct{}), c: &http.Client{Jar: jar,
		Transport:     &http.Transport{DialContext: dialer.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	l.get(t, base+"/chat")
	req, _ := http.NewRequest(http.MethodPost, base+"/chat/new", nil)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	resp, err := l.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/chat/c") {
		t.Fatalf("learner %d: new conversation: %d %q", n, resp.StatusCode, loc)
	}
	l.conv = strings.TrimPrefix(loc, "/chat/")
	return l
}

func (l *crashLearner) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := l.c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
	}
	return resp, string(b)
}

// liveAnswerRe finds the streaming answer's text in a chat patch.
var liveAnswerRe = regexp.MustCompile(`id="chat-live-a".*?class="msg-text">([^<]*)<`)

// ask sends the question and reads the answer's stream until the server
// goes away, keeping the latest text it showed. It runs on its own
// goroutine, so it reports through ended and lastText, not t.
func (l *crashLearner) ask(question string) {
	defer close(l.ended)
	l.mu.Lock()
	l.question = question
	l.mu.Unlock()
	body, _ := json.Marshal(map[string]any{"chatInput": question, "chatConv": l.conv, "chatBusy": true})
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, l.base+"/chat/send", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	req.Header.Set("Origin", l.base)
	resp, err := l.c.Do(req)
	if err != nil {
		l.setText("request failed: " + err.Error())
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		l.setText(fmt.Sprintf("refused %d: %s", resp.StatusCode, b))
		return
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		if m := liveAnswerRe.FindStringSubmatch(sc.Text()); m != nil {
			l.setText(m[1])
		}
	}
}

func (l *crashLearner) setText(s string) {
	l.mu.Lock()
	l.lastText = s
	l.mu.Unlock()
}

func (l *crashLearner) shown() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastText
}

func (l *crashLearner) words() int { return len(strings.Fields(l.shown())) }

func (l *crashLearner) wait(t *testing.T) {
	t.Helper()
	select {
	case <-l.ended:
	case <-time.After(10 * time.Second):
		t.Fatalf("learner %d: the stream did not end after the kill", l.n)
	}
}

func minShown(ls []*crashLearner) int {
	m := -1
	for _, l := range ls {
		if w := l.words(); m < 0 || w < m {
			m = w
		}
	}
	return m
}

type savedRow struct{ role, content, status string }

func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func messagesOf(t *testing.T, path, conv string) []savedRow {
	t.Helper()
	rows, err := openDB(t, path).Query(`SELECT role, content, status FROM messages WHERE conversation = ? ORDER BY id`, conv)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []savedRow
	for rows.Next() {
		var r savedRow
		if err := rows.Scan(&r.role, &r.content, &r.status); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func countStatus(t *testing.T, path, status string) int {
	t.Helper()
	var n int
	if err := openDB(t, path).QueryRow(`SELECT count(*) FROM messages WHERE status = ?`, status).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func at(xs []int, i int) int {
	if i < 0 || i >= len(xs) {
		return -1
	}
	return xs[i]
}
