package web

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

func TestRunNoteSaysWhereTheRunRan(t *testing.T) {
	at := time.Date(2026, 3, 1, 13, 44, 4, 0, time.Local)
	tests := []struct {
		name       string
		rate, load float64
		elsewhere  string
		want       []string
	}{
		{"hosted provider", 9, 20, "", []string{"13:44:04", "simulated hosted provider", "9 requests/s", "load dial did not reach it"}},
		{"room engine under load", 0, 20, "", []string{"room's shared engine", "20 requests/s", "load dial"}},
		{"room engine, no load", 0, 0, "", []string{"room's shared engine"}},
		{"another room engine under load", 0, 20, "llama-3.1-8b on l4", []string{"room's llama-3.1-8b on l4 engine", "20 requests/s", "not to this one"}},
		{"another room engine, no load", 0, 0, "llama-3.1-8b on l4", []string{"room's llama-3.1-8b on l4 engine", "that model and GPU"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			note := runNote(tc.rate, tc.load, tc.elsewhere, at)
			for _, w := range tc.want {
				if !strings.Contains(note, w) {
					t.Errorf("note %q lacks %q", note, w)
				}
			}
			// The lab's own result counts who shared the GPU; a second
			// count here could contradict it on the same page.
			for _, never := range []string{"to itself", "other request", "shared the engine's batch"} {
				if strings.Contains(note, never) {
					t.Errorf("note %q says %q", note, never)
				}
			}
		})
	}
}

func TestProviderRateReadsTheTenantKnob(t *testing.T) {
	tests := []struct {
		params labs.Values
		want   float64
	}{
		{labs.Values{"tenantRate": 9.0}, 9},
		{labs.Values{"tenantRate": 0.0}, 0},
		{labs.Values{"tenantRate": -1.0}, 0},
		{labs.Values{"tenantRate": "9"}, 0},
		{labs.Values{"steps": 3.0}, 0},
		{nil, 0},
	}
	for _, tc := range tests {
		if got := providerRate(tc.params); got != tc.want {
			t.Errorf("providerRate(%v) = %v, want %v", tc.params, got, tc.want)
		}
	}
}

func TestStatCellIsAKeyAndAPlainNumber(t *testing.T) {
	tests := []struct {
		st   labs.Stat
		want string
	}{
		{labs.Stat{Key: "reading_ms", Value: 59600.44, Unit: "ms"}, "reading_ms=59600.44"},
		{labs.Stat{Key: "first_word_ms", Value: 605.074658, Unit: "ms"}, "first_word_ms=605.075"},
		{labs.Stat{Key: "tokens_per_s", Value: 127.3, Unit: "tok/s"}, "tokens_per_s=127.3"},
		{labs.Stat{Key: "capacity_rps_static", Value: 8, Unit: "req/s"}, "capacity_rps_static=8"},
		{labs.Stat{Key: "goodput", Value: 5.5, Unit: "req/s"}, "goodput_req_per_s=5.5"},
		{labs.Stat{Key: "fallback", Value: 12.5, Unit: "%"}, "fallback_pct=12.5"},
		{labs.Stat{Key: "cost_saved", Value: 0.36, Unit: "$"}, "cost_saved_usd=0.36"},
		{labs.Stat{Key: "answer_tokens", Value: 300, Unit: "tokens"}, "answer_tokens=300"},
		{labs.Stat{Key: "wait", Value: 2.5, Unit: "s"}, "wait_s=2.5"},
		{labs.Stat{Key: "steps", Value: 3, Unit: ""}, "steps=3"},
	}
	plain := regexp.MustCompile(`^[a-z0-9_]+=-?[0-9]+(\.[0-9]+)?$`)
	for _, tc := range tests {
		got := statCell(tc.st)
		if got != tc.want {
			t.Errorf("statCell(%+v) = %q, want %q", tc.st, got, tc.want)
		}
		if !plain.MatchString(got) {
			t.Errorf("statCell(%+v) = %q: not key=number", tc.st, got)
		}
	}
}

func TestMeasuredMarksNeverPrintTwoLabelsAtOneSpot(t *testing.T) {
	tests := []struct {
		p50, p95 float64
		want     int
	}{
		{606, 606, 1},
		{606.2, 605.9, 1}, // both read "606 ms"
		{29.8, 57.2, 2},
	}
	for _, tc := range tests {
		if got := measuredMarks(tc.p50, tc.p95, "ms"); len(got) != tc.want {
			t.Errorf("measuredMarks(%v, %v) = %v, want %d marks", tc.p50, tc.p95, got, tc.want)
		}
	}
}

func TestRoundLineFollowsTheRoom(t *testing.T) {
	tests := []struct {
		name        string
		round       views.WorkshopRound
		want, never []string
		hidden      bool
	}{
		{"open", views.WorkshopRound{Round: 1, Preset: "Quick"}, []string{"Round 1", "Quick", "Write your guess, then run."}, []string{"no longer counts", "hosted"}, false},
		{"closed", views.WorkshopRound{Round: 2, Preset: "Quick", Locked: true}, []string{"Round 2", "no longer counts", "compare"}, []string{"Write your guess"}, false},
		{"ended", views.WorkshopRound{Round: 2, Preset: "Quick", Ended: true}, nil, []string{"Write your guess", "Round 2"}, true},
		{"nothing pushed", views.WorkshopRound{}, nil, []string{"Write your guess"}, true},
		{"hosted preset", views.WorkshopRound{Round: 1, Preset: "Hosted", Provider: 9}, []string{"simulated hosted provider", "9 requests/s", "outside the room's engine"}, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			html, err := renderString(context.Background(), views.WorkshopRoundLine(tc.round))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(html, w) {
					t.Errorf("%s lacks %q", html, w)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(html, n) {
					t.Errorf("%s says %q", html, n)
				}
			}
			if got := strings.Contains(html, "hidden"); got != tc.hidden {
				t.Errorf("%s: hidden %v, want %v", html, got, tc.hidden)
			}
		})
	}
}

// roomWithRuns opens a room, pushes the ticker lab, joins one learner and
// saves their runs straight into the store (params as the lab would have
// decoded them): one run for each entry of params, in order.
func roomWithRuns(t *testing.T, s *testServer, base string, runs []labs.Values) (*http.Client, *http.Client, string) {
	t.Helper()
	inst, code := openWorkshop(t, base, "Hosted check")
	postForm(t, inst, base+"/workshops/"+code+"/push", url.Values{"lab": {"ticker"}, "preset": {"Quick"}})
	learner, _ := joinWorkshop(t, base, code, "Cy")
	ctx := context.Background()
	ms, err := s.store.Members(ctx, code)
	if err != nil || len(ms) != 1 {
		t.Fatalf("members %v, %v", ms, err)
	}
	for i, params := range runs {
		run := store.Run{Learner: ms[0].Learner, Lab: "ticker", Params: params, CreatedAt: time.Now(),
			Summary: store.Summary{Status: "Complete", Stats: []labs.Stat{{Key: "ticks", Label: "Ticks", Value: float64(600 + i), Unit: "ms"}},
				Prediction: &store.Prediction{Value: 500, Unit: "ms", Stat: "ticks"}}}
		id, err := s.store.SaveRun(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.store.SaveWorkshopRun(ctx, code, id, run.Learner, "Quick", 1, 48); err != nil {
			t.Fatal(err)
		}
	}
	return inst, learner, code
}

func TestHostedRunsAreToldApartFromTheRoomsEngine(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, _, code := roomWithRuns(t, s, ts.URL, []labs.Values{{"tenantRate": 9.0, "steps": 3.0}, {"steps": 3.0}})

	_, board := get(t, inst, ts.URL+"/workshops/"+code+"/board")
	runs := board[strings.Index(board, `id="ws-runs"`):]
	for _, want := range []string{"hosted provider, 9 req/s of its own, up to 48 others", "room engine, up to 48 others", "Ran on"} {
		if !strings.Contains(runs, want) {
			t.Errorf("the board's runs lack %q", want)
		}
	}
	if !strings.Contains(board, "1 run this round went to a simulated hosted provider") {
		t.Error("the room's engine panel does not say that a run of this round bypassed it")
	}

	resp, err := inst.Get(ts.URL + "/workshops/" + code + "/export.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rows, err := csv.NewReader(resp.Body).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("export: %d rows, %v", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	// The columns other code reads keep their place.
	for i, h := range []string{"name", "lab", "preset", "round", "prediction", "prediction_unit", "measured_stat", "measured", "unit", "stats", "shared_batch_with", "status", "time"} {
		if rows[0][i] != h {
			t.Errorf("column %d is %q, want %q", i, rows[0][i], h)
		}
	}
	tests := []struct {
		row           []string
		ranOn, shared string
	}{
		{rows[1], "hosted_provider", "48"},
		{rows[2], "room", "48"},
	}
	for _, tc := range tests {
		if got := tc.row[col["ran_on"]]; got != tc.ranOn {
			t.Errorf("ran_on %q, want %q", got, tc.ranOn)
		}
		if got := tc.row[col["shared_batch_with"]]; got != tc.shared {
			t.Errorf("shared_batch_with %q, want %q (ran on %s)", got, tc.shared, tc.ranOn)
		}
	}
	if got := rows[1][col["stats"]]; got != "ticks_ms=600" && got != "ticks=600" {
		t.Errorf("stats %q, want a key and a plain number", got)
	}
}

func TestRoomResultsCountOneRunInTheSingular(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, _, code := roomWithRuns(t, s, ts.URL, []labs.Values{{"steps": 3.0}})
	_, board := get(t, inst, ts.URL+"/workshops/"+code+"/board")
	if !strings.Contains(board, "over 1 run.") || strings.Contains(board, "1 runs") {
		t.Error(`the results do not say "over 1 run"`)
	}
}

func TestEndedBoardHidesTheJoinBox(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, code := openWorkshop(t, ts.URL, "Ending")
	tests := []struct {
		name  string
		end   bool
		shown bool
	}{
		{"running", false, true},
		{"ended", true, false},
	}
	for _, tc := range tests {
		if tc.end {
			postForm(t, inst, ts.URL+"/workshops/"+code+"/end", nil)
		}
		_, board := get(t, inst, ts.URL+"/workshops/"+code+"/board")
		if got := strings.Contains(board, `id="ws-code"`) && strings.Contains(board, "/join</strong> with code"); got != tc.shown {
			t.Errorf("%s: join box shown %v, want %v", tc.name, got, tc.shown)
		}
	}
}

func TestLearnerRoundLineFollowsTheLock(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, learner, code := roomWithRuns(t, s, ts.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/workshops/"+code+"/events?round=1", nil)
	resp, err := learner.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("learner events: %v %v", resp, err)
	}
	defer resp.Body.Close()
	lines := make(chan string, 8)
	helps := make(chan string, 8)
	go readEvents(resp.Body, func(ev sseEvent) bool {
		switch {
		case ev.selector() == "#ws-round":
			lines <- ev.html()
		case strings.HasSuffix(ev.selector(), "-guess-help"):
			helps <- ev.html()
		}
		return true
	})
	steps := []struct {
		name     string
		settings url.Values
		end      bool
		want     string
		help     string // what the guess boxes' help then says ("" none sent)
	}{
		{"open", nil, false, "Write your guess, then run.", "Commit to"},
		{"closed", url.Values{"predictions": {"closed"}}, false, "no longer counts", "Predictions are closed in this room"},
		{"ended", nil, true, `class="help hidden"`, ""},
	}
	for _, st := range steps {
		if st.settings != nil {
			postForm(t, inst, ts.URL+"/workshops/"+code+"/settings", st.settings)
		}
		if st.end {
			postForm(t, inst, ts.URL+"/workshops/"+code+"/end", nil)
		}
		select {
		case html := <-lines:
			if !strings.Contains(html, st.want) {
				t.Errorf("%s: round line %s, want %q", st.name, html, st.want)
			}
		case <-ctx.Done():
			t.Fatalf("%s: the round line was never sent", st.name)
		}
		if st.help == "" {
			continue
		}
		select {
		case html := <-helps:
			if !strings.Contains(html, st.help) {
				t.Errorf("%s: guess help %s, want %q", st.name, html, st.help)
			}
		case <-ctx.Done():
			t.Fatalf("%s: the guess help was never sent", st.name)
		}
	}
}

func TestNarrowBoardDrawsItsChartsForItsWidth(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	inst, _, code := roomWithRuns(t, s, ts.URL, []labs.Values{{"steps": 3.0}})
	viewBox := func(query string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/workshops/"+code+"/board/events"+query, nil)
		resp, err := inst.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("board events: %v %v", resp, err)
		}
		defer resp.Body.Close()
		var vb string
		_ = readEvents(resp.Body, func(ev sseEvent) bool {
			if ev.selector() != "#ws-results" {
				return true
			}
			vb = regexp.MustCompile(`viewBox="([^"]+)"`).FindStringSubmatch(ev.html())[1]
			return false
		})
		return vb
	}
	wide, narrow := viewBox(""), viewBox("?datastar="+url.QueryEscape(`{"wsChartW":360}`))
	if wide == "" || narrow == "" || wide == narrow {
		t.Errorf("guesses chart viewBox %q on a wide board, %q on a 360 px one: want a layout for the phone's width", wide, narrow)
	}
	if desk := viewBox("?datastar=" + url.QueryEscape(`{"wsChartW":1200}`)); desk != wide {
		t.Errorf("a 1200 px board draws viewBox %q, want the default %q", desk, wide)
	}
}

func TestWorkshopLinksAreReachable(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	for _, page := range []string{"/", "/labs", "/lessons"} {
		_, body := get(t, c, ts.URL+page)
		for _, href := range []string{`href="/workshops/new"`, `href="/join"`} {
			if !strings.Contains(body, href) {
				t.Errorf("%s has no link %s", page, href)
			}
		}
	}
}
