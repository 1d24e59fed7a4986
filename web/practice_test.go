package web

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/lessons/practice"
)

func newPracticeServer(t *testing.T) (*httptestServer, *steppedClock) {
	t.Helper()
	clk := &steppedClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	s := newTestServer(t, func(c *Config) { c.Clock = clk; c.Lessons = PackageLessons{} })
	return &httptestServer{url: startHTTP(t, s).URL}, clk
}

type httptestServer struct{ url string }

func TestPracticeIndexListsEveryDrill(t *testing.T) {
	ts, _ := newPracticeServer(t)
	c := client(t)
	resp, body := get(t, c, ts.url+"/practice")
	if resp.StatusCode != 200 {
		t.Fatalf("GET /practice: %d", resp.StatusCode)
	}
	links := strings.Count(body, `href="/practice/estimate/`) + strings.Count(body, `href="/practice/open/`)
	if want := len(practice.Templates()) + 10 + len(practice.FollowUps()); links != want || links < 40 {
		t.Errorf("/practice links %d drills, want %d (and at least 40)", links, want)
	}
	if !strings.Contains(body, "within 25%") || !strings.Contains(body, "factor of two") {
		t.Error("the grading bands are not stated")
	}
	_, home := get(t, c, ts.url+"/")
	if !strings.Contains(home, `href="/practice"`) || !strings.Contains(home, "0 practice drills due today") {
		t.Error("home page lacks the practice link or the due count")
	}
}

func TestEstimateDrillFlow(t *testing.T) {
	ts, clk := newPracticeServer(t)
	c := client(t)
	get(t, c, ts.url+"/") // the learner cookie
	tm, _ := practice.LookupTemplate("ttft-prompt")
	prob, err := tm.Draw(7)
	if err != nil {
		t.Fatal(err)
	}
	page := ts.url + "/practice/estimate/ttft-prompt?seed=7"
	_, first := get(t, c, page)
	_, again := get(t, c, page)
	if first != again || !strings.Contains(first, htmlEscape(prob.Question)) {
		t.Fatal("the page for a seed is not deterministic or lacks the drawn question")
	}
	if strings.Contains(first, `id="steps"`) {
		t.Error("worked solution shown before any answer")
	}
	post := func(answer string) *http.Response {
		return postForm(t, c, ts.url+"/practice/estimate/ttft-prompt", url.Values{"seed": {"7"}, "answer": {answer}})
	}
	bad := []struct{ answer, says string }{
		{"fast", "start with a number"}, {"1200", "add a unit"}, {"3 GB", "not a unit of time"},
	}
	for _, b := range bad {
		resp, err := c.PostForm(ts.url+"/practice/estimate/ttft-prompt", url.Values{"seed": {"7"}, "answer": {b.answer}})
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(resp)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, b.says) || !strings.Contains(body, "1200 ms") ||
			!strings.Contains(body, `value="`+b.answer+`"`) {
			t.Errorf("answer %q: %d, want 422 saying %q with an example and the answer kept", b.answer, resp.StatusCode, b.says)
		}
	}
	ms := prob.Answer * 1000
	cases := []struct {
		answer, verdict, score string
	}{
		{fmt.Sprintf("%.0f ms", ms*5), "No marks", "0%"},
		{fmt.Sprintf("%.0f ms", ms*1.6), "Half marks", "50%"},
		{fmt.Sprintf("%.4f s", prob.Answer), "Full marks", "100%"},
	}
	for i, cs := range cases {
		clk.advance(time.Minute)
		if resp := post(cs.answer); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("answer %q: %d, want 303", cs.answer, resp.StatusCode)
		}
		_, body := get(t, c, page)
		if !strings.Contains(body, cs.verdict) || !strings.Contains(body, `id="steps"`) || !strings.Contains(body, "/labs/prefill-decode") {
			t.Errorf("after %q: no %q verdict, worked solution or lab link", cs.answer, cs.verdict)
		}
		if n := strings.Count(body, `<td class="score">`); n != i+1 {
			t.Errorf("history has %d rows after %d answers", n, i+1)
		}
	}
	for _, bad := range []string{"/practice/estimate/nope?seed=1", "/practice/estimate/ttft-prompt?seed=-1"} {
		if resp, _ := get(t, c, ts.url+bad); resp.StatusCode != 404 && resp.StatusCode != 400 {
			t.Errorf("GET %s: %d, want 404 or 400", bad, resp.StatusCode)
		}
	}
	if resp, _ := get(t, c, ts.url+"/practice/estimate/ttft-prompt"); resp.StatusCode != http.StatusSeeOther ||
		!strings.HasPrefix(resp.Header.Get("Location"), "/practice/estimate/ttft-prompt?seed=") {
		t.Errorf("no seed: %d to %q, want 303 to a seeded page", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Full marks after a miss: box 1 then 2, due in three days.
	clk.advance(2 * 24 * time.Hour)
	if _, body := get(t, c, ts.url+"/"); !strings.Contains(body, "0 practice drills due today") {
		t.Error("drill due too early")
	}
	clk.advance(2 * 24 * time.Hour)
	if _, body := get(t, c, ts.url+"/"); !strings.Contains(body, "1 practice drills due today") {
		t.Error("drill not due after its interval")
	}
	if _, body := get(t, c, ts.url+"/practice/review"); !strings.Contains(body, `href="/practice/estimate/ttft-prompt"`) {
		t.Error("review page does not list the due drill")
	}
}

func TestOpenQuestionFlow(t *testing.T) {
	ts, _ := newPracticeServer(t)
	c := client(t)
	get(t, c, ts.url+"/")
	page := ts.url + "/practice/open/ttft-long-prompt"
	_, body := get(t, c, page)
	if strings.Contains(body, `id="model-answer"`) {
		t.Fatal("model answer shown before an attempt")
	}
	short := "Prefill grows with the prompt, so the first token is later."
	resp, err := c.PostForm(page, url.Values{"answer": {short}})
	if err != nil {
		t.Fatal(err)
	}
	body = readAll(resp)
	if resp.StatusCode != 422 || !strings.Contains(body, "has 11 words; write at least 29 more") || !strings.Contains(body, short) {
		t.Fatalf("short answer: %d; want 422 counting the words and keeping the text", resp.StatusCode)
	}
	long := strings.Repeat("Prefill work grows with the prompt and attention grows faster, so chunk it. ", 4)
	resp = postForm(t, c, page, url.Values{"answer": {long}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d", resp.StatusCode)
	}
	loc := resp.Header.Get("Location")
	_, body = get(t, c, ts.url+loc)
	if !strings.Contains(body, `id="model-answer"`) || !strings.Contains(body, "chunked prefill") {
		t.Fatal("model answer not shown beside the attempt")
	}
	id := strings.TrimSuffix(strings.SplitN(loc, "attempt=", 2)[1], "#compare")
	resp = postForm(t, c, page+"/score", url.Values{"attempt": {id}, "tick": {"0", "2"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("score: %d", resp.StatusCode)
	}
	_, body = get(t, c, ts.url+loc)
	if !strings.Contains(body, "Score: <strong>50%</strong>") || strings.Count(body, "checked") != 2 {
		t.Error("score of two ticks out of four not shown")
	}
	postForm(t, c, page, url.Values{"answer": {long + " Second try."}})
	_, body = get(t, c, page)
	if n := strings.Count(body, `<td class="score">`); n != 2 {
		t.Errorf("history has %d attempts, want 2", n)
	}
	for _, bad := range []url.Values{{"attempt": {id}, "tick": {"9"}}, {"attempt": {"x"}}, {"attempt": {"999"}}} {
		if resp := postForm(t, c, page+"/score", bad); resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Errorf("score %v: %d, want 4xx", bad, resp.StatusCode)
		}
	}
	resp, md := get(t, c, ts.url+"/practice/export.md")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/markdown") ||
		strings.Count(md, "## Open question: What changes") != 2 || !strings.Contains(md, "- [x] Notes that prefill work") ||
		!strings.Contains(md, "- [ ] Estimates the new first-token") || !strings.Contains(md, "> Prefill work grows") {
		t.Errorf("export (%s) lacks the attempts, ticks or answers:\n%s", ct, md)
	}
	if resp, _ := get(t, c, ts.url+"/practice/open/nope"); resp.StatusCode != 404 {
		t.Errorf("unknown question: %d", resp.StatusCode)
	}
}

func readAll(resp *http.Response) string {
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func htmlEscape(s string) string { return html.EscapeString(s) }
