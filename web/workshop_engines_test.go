package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// statusShared is the "up to N" a run's own result states: how many other
// requests its busiest batch held (0 when it names no sharing).
func statusShared(status string) int {
	if m := regexp.MustCompile(`up to (\d+) of them in one batch with it`).FindStringSubmatch(status); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if strings.Contains(status, "1 other request shared the GPU with yours, in one batch with it") {
		return 1
	}
	return 0
}

// postWorkshopRun posts a run with the signals body from a learner's
// workshop page, as Datastar does, and reports a failed one on t; the
// page it streams is read to the end, so the run is saved on return.
func postWorkshopRun(t *testing.T, c *http.Client, url, body string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		t.Error(err)
		return ""
	}
	var page strings.Builder
	_, _ = io_Copy(&page, resp)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("run %s: %d %s", url, resp.StatusCode, page.String())
	}
	return page.String()
}

// boardWhere maps each name in the board's runs table to its "Ran on".
func boardWhere(t *testing.T, board string) map[string]string {
	t.Helper()
	i := strings.Index(board, `id="ws-runs"`)
	if i < 0 {
		t.Fatal("the board has no runs table")
	}
	row := regexp.MustCompile(`(?s)<tr class="ws-run"><td[^>]*>[^<]*</td><td[^>]*>([^<]*)</td>.*?<td[^>]*>([^<]*)</td></tr>`)
	out := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(board[i:], -1) {
		out[m[1]] = m[2]
	}
	return out
}

// A room's pool holds an engine per model and GPU. With the load dial on
// the room's main engine (an H100), a run there shares its batches with
// the dial's requests; a run on the room's A100 engine does not, and two
// runs there at once share with each other. The board's "up to N others"
// is each run's own figure from the engine it ran on, the same number its
// result states, beside that engine's name.
func TestBoardCountsEachRunOnTheEngineItUsed(t *testing.T) {
	s, base := newStreamingServer(t, nil)
	inst, code := openWorkshop(t, base, "Two engines")
	postForm(t, inst, base+"/workshops/"+code+"/settings", url.Values{"load": {"20"}})
	postForm(t, inst, base+"/workshops/"+code+"/push", url.Values{"lab": {"streaming"}, "preset": {"Streaming on an H100"}})
	lab, _ := s.cfg.Catalog.Get("streaming")
	signals, _, err := presetSignals(lab, "Streaming on an H100")
	if err != nil {
		t.Fatal(err)
	}
	body := func(gpu string) string {
		b := strings.Replace(signals, `"answerTokens":300`, `"answerTokens":60`, 1)
		return strings.Replace(b, `"gpu":"h100-sxm"`, fmt.Sprintf("%q:%q", "gpu", gpu), 1)
	}
	if !strings.Contains(signals, `"gpu":"h100-sxm"`) || !strings.Contains(signals, `"answerTokens":300`) {
		t.Fatalf("the preset's signals %s lack the knobs this test changes", signals)
	}
	learners := map[string]*http.Client{}
	for _, name := range []string{"Ana", "Bo", "Cy", "Di"} {
		learners[name], _ = joinWorkshop(t, base, code, name)
	}
	run := func(name, gpu string) {
		postWorkshopRun(t, learners[name], base+"/labs/streaming/run?w="+code, body(gpu))
	}
	time.Sleep(2 * time.Second) // the dial's traffic builds up on the H100
	run("Ana", "h100-sxm")
	run("Bo", "a100-80g")
	var wg sync.WaitGroup // both runs posted at once, so their requests meet on the A100
	for _, name := range []string{"Cy", "Di"} {
		wg.Add(1)
		go func() { defer wg.Done(); run(name, "a100-80g") }()
	}
	wg.Wait()

	runs, err := s.store.WorkshopRuns(context.Background(), code, store.WorkshopRunsFilter{})
	if err != nil || len(runs) != 4 {
		t.Fatalf("%d runs stored, %v; want 4", len(runs), err)
	}
	_, board := get(t, inst, base+"/workshops/"+code+"/board")
	where := boardWhere(t, board)
	shared := map[string]int{}
	for _, r := range runs {
		said := statusShared(r.Summary.Status)
		shared[r.Name] = r.SharedWith
		gpu := map[string]string{"Ana": "h100-sxm", "Bo": "a100-80g", "Cy": "a100-80g", "Di": "a100-80g"}[r.Name]
		want := "room engine (llama-3.1-8b on " + gpu + "), alone in its batch"
		if said > 0 {
			want = fmt.Sprintf("room engine (llama-3.1-8b on %s), up to %d other", gpu, said)
		}
		if r.SharedWith != said || !strings.HasPrefix(where[r.Name], want) {
			t.Errorf("%s: result says up to %d others (%q); stored %d, board %q", r.Name, said, r.Summary.Status, r.SharedWith, where[r.Name])
		}
	}
	if shared["Ana"] < 3 {
		t.Errorf("Ana's run on the loaded H100 shared with %d others, want the dial's requests", shared["Ana"])
	}
	if shared["Bo"] != 0 {
		t.Errorf("Bo's run alone on the A100 shared with %d others, want none (the H100's batch is not its)", shared["Bo"])
	}
	if shared["Cy"] != 1 || shared["Di"] != 1 {
		t.Errorf("Cy and Di ran together on the A100 and shared with %d and %d others, want each other", shared["Cy"], shared["Di"])
	}
	// Each learner's page says where the run ran, as its result does: the
	// dial's engine for Ana, the A100 engine, which the dial misses, for Bo.
	for name, want := range map[string]struct{ has, hasNot string }{
		"Ana": {"load dial adds", "a100-80g engine"},
		"Bo":  {"llama-3.1-8b on a100-80g engine", "load dial adds"},
	} {
		_, page := get(t, learners[name], base+"/workshops/"+code)
		if !strings.Contains(page, want.has) || strings.Contains(page, want.hasNot) {
			t.Errorf("%s's page: want %q and not %q in its note on where the run ran", name, want.has, want.hasNot)
		}
	}
	t.Logf("shared: %v; board: %v", shared, where)
}

// The board names the room engine a run's settings chose; a lab without
// model and GPU knobs leaves it unnamed, and a hosted run names its
// provider instead.
func TestWhereNamesTheRoomEngine(t *testing.T) {
	tests := []struct {
		params labs.Values
		shared int
		want   string
	}{
		{labs.Values{"model": "llama-3.1-8b", "gpu": "a100-80g"}, 3, "room engine (llama-3.1-8b on a100-80g), up to 3 others"},
		{labs.Values{"model": "llama-3.1-8b", "gpu": "l4"}, 0, "room engine (llama-3.1-8b on l4), alone in its batch"},
		{labs.Values{"steps": 3.0}, 1, "room engine, up to 1 other"},
		{labs.Values{"model": "llama-3.1-8b"}, 2, "room engine, up to 2 others"},
		{labs.Values{"model": 7.0, "gpu": "l4"}, 2, "room engine, up to 2 others"},
		{labs.Values{"model": "llama-3.1-8b", "gpu": "h100-sxm", "tenantRate": 9.0}, 30, "hosted provider, 9 req/s of its own, up to 30 others"},
		{labs.Values{"tenantRate": 9.0}, 0, "hosted provider, 9 req/s of its own, alone in its batch"},
	}
	for _, tc := range tests {
		row := views.RoomRunRow{SharedWith: tc.shared, Provider: providerRate(tc.params), Engine: roomEngine(tc.params)}
		if got := row.Where(); got != tc.want {
			t.Errorf("Where(%v, %d) = %q, want %q", tc.params, tc.shared, got, tc.want)
		}
	}
}

// The board names the preset each run used, not the round's: a learner
// may pick another preset or move a knob ("own settings"). A run on a
// hosted preset gets the "up to N others" its own result states, counted
// on the provider's engine it ran on.
func TestBoardNamesThePresetARunUsed(t *testing.T) {
	s, base := newStreamingServer(t, nil)
	inst, code := openWorkshop(t, base, "Presets")
	postForm(t, inst, base+"/workshops/"+code+"/push", url.Values{"lab": {"streaming"}, "preset": {"Streaming on an H100"}})
	lab, _ := s.cfg.Catalog.Get("streaming")
	signalsOf := func(preset string) string {
		signals, _, err := presetSignals(lab, preset)
		if err != nil {
			t.Fatal(err)
		}
		return signals
	}
	own := strings.Replace(signalsOf("Streaming on an H100"), `"answerTokens":300`, `"answerTokens":60`, 1)
	tests := []struct {
		name, body, want string
		hosted           bool
	}{
		{"Ann", signalsOf("Blocking on an H100"), "Blocking on an H100", false},
		{"Bob", signalsOf("Hosted tier as in the lesson"), "Hosted tier as in the lesson", true},
		{"Cy", own, ownSettings, false},
	}
	for _, tc := range tests {
		c, _ := joinWorkshop(t, base, code, tc.name)
		postWorkshopRun(t, c, base+"/labs/streaming/run?w="+code, tc.body)
	}
	runs, err := s.store.WorkshopRuns(context.Background(), code, store.WorkshopRunsFilter{})
	if err != nil || len(runs) != len(tests) {
		t.Fatalf("%d runs stored, %v; want %d", len(runs), err, len(tests))
	}
	_, board := get(t, inst, base+"/workshops/"+code+"/board")
	where := boardWhere(t, board)
	status := map[string]string{}
	for _, r := range runs {
		status[r.Name] = r.Summary.Status
	}
	for _, tc := range tests {
		if !regexp.MustCompile(`<td data-label="Name">` + tc.name + `</td><td[^>]*>[^<]*</td><td data-label="Preset">` + regexp.QuoteMeta(tc.want) + `</td>`).MatchString(board) {
			t.Errorf("%s's row does not name the preset %q", tc.name, tc.want)
		}
		said := statusShared(status[tc.name])
		if !tc.hosted {
			continue
		}
		if said == 0 {
			t.Fatalf("%s's hosted run states no sharing: %q", tc.name, status[tc.name])
		}
		want := fmt.Sprintf("hosted provider, 9 req/s of its own, up to %d others", said)
		if where[tc.name] != want {
			t.Errorf("%s's hosted run: board says %q, its result %q", tc.name, where[tc.name], status[tc.name])
		}
	}
}
