package labs

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// TestBusyNote: the note appears only past BusyShare of the GPU's time and
// the floor, names the worst lag, and says the delay is not in the figures.
func TestBusyNote(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name   string
		events [][2]time.Duration // GPU time, handler time
		want   []string           // parts of the note; nil: no note
	}{
		{"on time", [][2]time.Duration{{10 * ms, 10 * ms}, {20 * ms, 20 * ms}}, nil},
		{"noise under the share", [][2]time.Duration{{100 * ms, 102 * ms}, {1000 * ms, 1020 * ms}}, nil},
		{"under the floor on a short run", [][2]time.Duration{{10 * ms, 10*ms + 900*time.Microsecond}}, nil},
		{"early is not late", [][2]time.Duration{{100 * ms, 50 * ms}}, nil},
		{"a stall", [][2]time.Duration{{100 * ms, 100 * ms}, {108 * ms, 469 * ms}, {1000 * ms, 1000 * ms}},
			[]string{"up to 361 ms after the GPU made them", "(36% of the GPU's time)", "not in them"}},
		{"a late last token", [][2]time.Duration{{1000 * ms, 1100 * ms}}, []string{"up to 100 ms", "not in them"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d Delivery
			for _, ev := range tc.events {
				d.Observe(ev[0], ev[1])
			}
			note := d.BusyNote()
			if tc.want == nil {
				if note != "" {
					t.Errorf("note %q, want none", note)
				}
				return
			}
			for _, part := range tc.want {
				if !strings.Contains(note, part) {
					t.Errorf("note %q lacks %q", note, part)
				}
			}
		})
	}
}

// TestBusyNoteNamesWhatWasLate: when the latest moment was a stage or a
// check rather than a token, the note names it and does not blame the
// tokens; a merged run keeps the name of the worst.
func TestBusyNoteNamesWhatWasLate(t *testing.T) {
	ms := time.Millisecond
	var tokens, checks Delivery
	tokens.Observe(1000*ms, 1020*ms)
	checks.ObserveOf("a moderation check", 300*ms, 450*ms)
	checks.Observe(1000*ms, 1000*ms)
	tokens.Merge(checks)
	note := tokens.BusyNote()
	for _, part := range []string{"a moderation check finished up to 150 ms later", "(15% of the run's modelled time)", "modelled times"} {
		if !strings.Contains(note, part) {
			t.Errorf("note %q lacks %q", note, part)
		}
	}
	if strings.Contains(note, "tokens reached you") {
		t.Errorf("note %q blames the tokens for a late check", note)
	}
}

// TestMergeKeepsTheWorst: a run of two requests reports the larger lag.
func TestMergeKeepsTheWorst(t *testing.T) {
	var a, b Delivery
	a.Observe(100*time.Millisecond, 110*time.Millisecond)
	b.Observe(50*time.Millisecond, 90*time.Millisecond)
	a.Merge(b)
	if a.MaxLag() != 40*time.Millisecond {
		t.Errorf("merged max lag %v, want 40ms", a.MaxLag())
	}
}

func TestSharingNote(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name      string
		sh        live.Sharing
		ttft, e2e time.Duration
		want      string // "" means no note
	}{
		{"alone", live.Sharing{Steps: 10, MaxBatch: 1}, 0, 0, ""},
		{"alone, prefix cache made it faster", live.Sharing{Steps: 10, MaxBatch: 1}, -5 * ms, -5 * ms, ""},
		{"three others", live.Sharing{Others: 3, MaxBatch: 4}, 12 * ms, 40 * ms,
			"3 other requests shared the GPU with yours (up to 3 of them in one batch with it), which added ~12 ms to your first token and ~40 ms to the whole answer."},
		{"one other, no cost", live.Sharing{Others: 1, MaxBatch: 2}, 0, 0,
			"1 other request shared the GPU with yours, in one batch with it, at no measurable cost to it."},
		{"negative first-token cost shows as zero", live.Sharing{Others: 2, MaxBatch: 3}, -3 * ms, 20 * ms,
			"2 other requests shared the GPU with yours (up to 2 of them in one batch with it), which added ~0 ms to your first token and ~20 ms to the whole answer."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SharingNote(tc.sh, tc.ttft, tc.e2e); got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestOthersNoteAndJoin(t *testing.T) {
	if got := OthersNote(0); got != "" {
		t.Errorf("OthersNote(0) = %q", got)
	}
	got := JoinNotes("Done.", "", OthersNote(2), "")
	if want := "Done. 2 other requests shared the GPU with this run."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAlone: the lone run is the simulation's; a request the engine
// refuses reports !ok.
func TestAlone(t *testing.T) {
	cfg := engine.DefaultConfig()
	req := engine.Request{ID: "a", PromptTokens: make([]int, 500), OutputTokens: make([]int, 20), MaxTokens: 20}
	for i := range req.OutputTokens {
		req.OutputTokens[i] = 1000 + i
	}
	ttft, e2e, ok := Alone(cfg, req)
	if !ok || ttft <= 0 || e2e <= ttft {
		t.Errorf("Alone = %v, %v, %v; want 0 < ttft < e2e", ttft, e2e, ok)
	}
	huge := req
	huge.PromptTokens = make([]int, cfg.Model.MaxContextLen+1)
	if _, _, ok := Alone(cfg, huge); ok {
		t.Error("a prompt beyond the context was run alone")
	}
}
