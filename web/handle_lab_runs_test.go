package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
)

// learnerClient is a client whose cookie names learner id, so a test can
// save runs for it straight into the store.
func learnerClient(t *testing.T, base, id string) *http.Client {
	t.Helper()
	c := client(t)
	u, _ := url.Parse(base)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: learnerCookie, Value: id, Path: "/"}})
	return c
}

const (
	alice = "a11ce000000000000000000000000000"
	bob   = "b0b00000000000000000000000000000"
)

// seedRun saves a ticker run for learner with one chart of n points.
func seedRun(t *testing.T, s *testServer, learner, lab string, at time.Duration, steps float64, panels bool) int64 {
	t.Helper()
	r := store.Run{Learner: learner, Lab: lab, CreatedAt: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC).Add(at),
		Params: labs.Values{"steps": steps, "gapMs": 120.0, "mode": "words", "loud": false},
		Summary: store.Summary{Status: "Done: words", Stats: []labs.Stat{{Key: "first", Label: "First word", Value: 100 * steps, Unit: "ms"}},
			Prediction: &store.Prediction{Value: 250, Unit: "ms", Stat: "first"}}}
	if panels {
		var pts []labs.Point
		for i := range int(steps) {
			pts = append(pts, labs.Point{X: float64(i + 1), Y: float64(i + 1)})
		}
		r.Panels = &store.Panels{
			Text:   &labs.TextPanel{Title: "Answer", Body: "word1 word2"},
			Charts: []labs.Chart{{ID: "words", Title: "Words over time", Kind: labs.ChartLine, Series: []labs.Series{{Name: "words", Points: pts}}}},
			Tables: []labs.Table{{Title: "Steps", Columns: []string{"step"}, Rows: [][]string{{"1"}}}},
		}
	}
	id, err := s.store.SaveRun(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestReopenRunPage(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	old := seedRun(t, s, alice, "ticker", 0, 3, false)
	withPanels := seedRun(t, s, alice, "ticker", time.Minute, 5, true)
	bobs := seedRun(t, s, bob, "ticker", 2*time.Minute, 4, true)
	other := seedRun(t, s, alice, "elsewhere", 3*time.Minute, 4, true)
	ids := func(id int64) string { return strconv.FormatInt(id, 10) }

	tests := []struct {
		name   string
		path   string
		status int
		want   []string
		absent []string
	}{
		{"own run with panels", "/labs/ticker/runs/" + ids(withPanels), 200,
			[]string{"Ticker lab: run #2", `<svg id="run-` + ids(withPanels) + `-words"`, "word1 word2", "You predicted <strong>250 ms</strong>", `<span class="stat-value">500<span class="stat-unit">`,
				"<dt>Steps</dt><dd>5 frames</dd>", `action="/labs/ticker/runs/` + ids(withPanels) + `/reflection"`, "Steps</caption>",
				`href="/labs/ticker/compare?a=` + ids(old) + `&amp;b=` + ids(withPanels) + `"`},
			[]string{"saved before charts"}},
		{"own old run without panels", "/labs/ticker/runs/" + ids(old), 200,
			[]string{"run #1", "saved before charts were kept", `<span class="stat-value">300<span class="stat-unit">`}, []string{"<svg id="}},
		{"another learner's run", "/labs/ticker/runs/" + ids(bobs), 404, []string{"There is no saved run"}, []string{"word1"}},
		{"unknown id", "/labs/ticker/runs/999999", 404, []string{"There is no saved run"}, nil},
		{"not a number", "/labs/ticker/runs/x%3Cb%3E", 404, []string{"There is no saved run “x&lt;b&gt;”"}, []string{"strconv", "<b>"}},
		{"own run of another lab", "/labs/ticker/runs/" + ids(other), 404, []string{"There is no saved run"}, nil},
		{"unknown lab", "/labs/nope/runs/" + ids(withPanels), 404, []string{"lab called"}, nil},
	}
	c := learnerClient(t, ts.URL, alice)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, c, ts.URL+tc.path)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, tc.status, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(body, a) {
					t.Errorf("page has %q", a)
				}
			}
		})
	}
	// The run list links each run to its page and offers the comparison.
	_, list := get(t, c, ts.URL+"/labs/ticker/runs")
	for _, w := range []string{`href="/labs/ticker/runs/` + ids(withPanels) + `"`, "Open run #2", "Open run #1",
		`action="/labs/ticker/compare"`, `name="a" value="` + ids(old) + `"`, `id="lab-ticker-reflect"`} {
		if !strings.Contains(list, w) {
			t.Errorf("run list lacks %q", w)
		}
	}
}

func TestCompareRuns(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	a := seedRun(t, s, alice, "ticker", 0, 3, true)
	b := seedRun(t, s, alice, "ticker", time.Minute, 5, true)
	noPanels := seedRun(t, s, alice, "ticker", 2*time.Minute, 4, false)
	bobs := seedRun(t, s, bob, "ticker", 0, 4, true)
	other := seedRun(t, s, alice, "elsewhere", 0, 4, true)
	q := func(x, y int64) string {
		return "/labs/ticker/compare?a=" + strconv.FormatInt(x, 10) + "&b=" + strconv.FormatInt(y, 10)
	}
	tests := []struct {
		name   string
		path   string
		status int
		want   []string
	}{
		{"two own runs", q(a, b), 200, []string{`<svg id="cmp-words"`, "words · run #1", "words · run #2", `stroke="#4e79a7"`, `stroke="#d67500"`,
			`stroke-dasharray="6 4"`, "+200 ms (+67%)", `<th scope="row">Steps</th><td data-label="run #1">3 frames</td><td data-label="run #2">5 frames</td>`, "Both with:"}},
		{"a run without panels", q(a, noPanels), 200, []string{"saved before charts", "+100 ms (+33%)"}},
		{"runs of two labs", q(a, other), 400, []string{"another lab"}},
		{"another learner's run", q(a, bobs), 404, []string{"There is no saved run"}},
		{"unknown run", q(a, 999999), 404, []string{"There is no saved run"}},
		{"same run twice", q(a, a), 400, []string{"same run twice"}},
		{"one run missing", "/labs/ticker/compare?a=1", 400, []string{"Pick two runs"}},
		{"not numbers", "/labs/ticker/compare?a=x&b=y", 400, []string{"“x” is not a run number"}},
		{"a zero run", "/labs/ticker/compare?a=0&b=1", 400, []string{"“0” is not a run number"}},
	}
	c := learnerClient(t, ts.URL, alice)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, c, ts.URL+tc.path)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, tc.status, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			if strings.Count(body, `<svg id="cmp-words"`) > 1 {
				t.Error("a shared chart is drawn more than once")
			}
		})
	}
}

func TestReflection(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	id := seedRun(t, s, alice, "ticker", 0, 3, true)
	bobs := seedRun(t, s, bob, "ticker", 0, 3, true)
	path := func(id int64) string {
		return ts.URL + "/labs/ticker/runs/" + strconv.FormatInt(id, 10) + "/reflection"
	}
	tests := []struct {
		name     string
		url      string
		text     string
		datastar bool
		status   int
		stored   string
		inBody   string
	}{
		{"saves, trimmed", path(id), "  batching   helped TTFT  ", false, 303, "batching helped TTFT", ""},
		{"exactly 280", path(id), strings.Repeat("x", 280), false, 303, strings.Repeat("x", 280), ""},
		{"too long", path(id), strings.Repeat("x", 281), false, 422, strings.Repeat("x", 280), "at most 280 characters (this one has 281)"},
		{"another learner's run", path(bobs), "mine", false, 404, strings.Repeat("x", 280), "There is no saved run"},
		{"unknown run", path(99999), "x", false, 404, strings.Repeat("x", 280), "There is no saved run"},
		{"empty removes", path(id), "   ", false, 303, "", ""},
		{"datastar saves in place", path(id), "queueing", true, 200, "queueing", "Saved."},
		{"datastar too long", path(id), strings.Repeat("y", 300), true, 422, "queueing", "at most 280 characters"},
	}
	c := learnerClient(t, ts.URL, alice)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			form := url.Values{"reflection": {tc.text}, "view": {"run"}}
			req, _ := http.NewRequest("POST", tc.url, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.datastar {
				req.Header.Set("Datastar-Request", "true")
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, tc.status, b)
			}
			if !strings.Contains(string(b), tc.inBody) {
				t.Errorf("answer lacks %q: %.400s", tc.inBody, b)
			}
			if tc.status == 303 && resp.Header.Get("Location") != "/labs/ticker/runs/"+strconv.FormatInt(id, 10)+"#run-reflection" {
				t.Errorf("redirect to %q", resp.Header.Get("Location"))
			}
			if tc.datastar && !strings.Contains(string(b), "selector #run-reflection") {
				t.Errorf("datastar answer does not patch the box: %.300s", b)
			}
			r, err := s.store.GetRun(context.Background(), alice, id)
			if err != nil || r.Reflection != tc.stored {
				t.Errorf("stored %q, %v; want %q", r.Reflection, err, tc.stored)
			}
		})
	}
	// A crafted id never reaches the box's Datastar expression.
	req, _ := http.NewRequest("POST", ts.URL+"/labs/ticker/runs/1');alert(1);('/reflection", strings.NewReader("reflection=x&view=run"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Datastar-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || !strings.Contains(string(b), `@post(&#39;/labs/ticker/runs/0/reflection&#39;`) || strings.Contains(string(b), "alert(1);(&#39;/reflection") {
		t.Errorf("crafted id: status %d, body %.400s", resp.StatusCode, b)
	}

	// Shown on the reopened run and in the run list.
	if err := s.store.SetReflection(context.Background(), alice, id, "prefill <dominated>"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/labs/ticker/runs/" + strconv.FormatInt(id, 10), "/labs/ticker/runs"} {
		if _, body := get(t, c, ts.URL+p); !strings.Contains(body, "prefill &lt;dominated&gt;") {
			t.Errorf("%s does not show the reflection (escaped)", p)
		}
	}
	// Without the learner cookie, a post is refused before it reaches the run.
	resp = postForm(t, client(t), path(id), url.Values{"reflection": {"x"}})
	if resp.StatusCode != 400 {
		t.Errorf("post without cookie: status %d, want 400", resp.StatusCode)
	}
}

// TestRunSavesWhatThePageShowed runs the ticker lab, whose final frame
// carries stats and text only: the saved panels still hold the chart the
// page showed from the frame before.
func TestRunSavesWhatThePageShowed(t *testing.T) {
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	c := learnerClient(t, base, alice)
	resp := postRun(t, context.Background(), c, base, `{"labTicker":{"steps":3,"gapMs":5,"mode":"words","loud":false},"labTickerGuess":"7"}`)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	runs, err := s.store.ListRuns(context.Background(), alice, "ticker", 1)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %v, %v", runs, err)
	}
	r, err := s.store.GetRun(context.Background(), alice, runs[0].ID)
	if err != nil || r.Panels == nil {
		t.Fatalf("GetRun: %v, panels %v", err, r.Panels)
	}
	if len(r.Panels.Charts) != 1 || r.Panels.Charts[0].ID != "words" || len(r.Panels.Charts[0].Series[0].Points) != 3 {
		t.Errorf("saved charts = %+v, want the words chart with 3 points", r.Panels.Charts)
	}
	if r.Panels.Text == nil || !strings.Contains(r.Panels.Text.Body, "word3") {
		t.Errorf("saved text = %+v", r.Panels.Text)
	}
}
