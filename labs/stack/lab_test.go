package stack

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// onPool is the lab on a given pool, for RunInBubble and RunBusy.
var onPool = labtest.OnPool(New, "test")

// runOnVirtualTime runs vals inside a synctest bubble: every figure exact.
func runOnVirtualTime(t *testing.T, vals labs.Values) []labs.Frame {
	return labtest.RunInBubble(t, onPool, vals, nil)
}

func TestDeclaration(t *testing.T) {
	l := labtest.Inert(t, define)
	labtest.CheckDeclaration(t, l, labtest.Entry{Slug: "stack", Lesson: "streaming-through-the-stack",
		PredictionStat: statFirstWord, PredictionUnit: "ms",
		Presets: []string{"Works on my laptop", "In production behind a buffering proxy", "A smaller proxy buffer",
			"A proxy that flushes on a timer", "Fixed: buffering off for the stream route", "Fixed, with the other provider"}})
	if labtest.Defaults(l)[knobProxy] != false {
		t.Error("the default view is not the laptop (no proxy)")
	}
}

// TestPresetsShowWhatTheirNotesSay runs every preset on virtual time and
// holds each to its note: the laptop and both fixes stream a burst per
// token from the GPU's first token; the production proxy shows the whole
// answer in one burst when the GPU ends; the small buffer lands in a few
// lumps cut mid-event; the timer lets go on the half second.
func TestPresetsShowWhatTheirNotesSay(t *testing.T) {
	// whyNames is what the first word's arithmetic must name as the
	// proxy's reason to let go, or that nothing held it.
	whyNames := map[string]string{
		"Works on my laptop":                        "Nothing on the way held it: first word =",
		"In production behind a buffering proxy":    "the answer was complete",
		"A smaller proxy buffer":                    "its 4,096-byte buffer filled",
		"A proxy that flushes on a timer":           "its 500 ms flush timer fired. First word =",
		"Fixed: buffering off for the stream route": "Nothing on the way held it",
		"Fixed, with the other provider":            "Nothing on the way held it",
	}
	l := labtest.Inert(t, define)
	finals := labtest.PresetFinals(t, l, runOnVirtualTime)
	tokens := float64(defaults.answer)
	type figures struct{ first, last, bursts, gap float64 }
	got := map[string]figures{}
	for name, f := range finals {
		labtest.CheckUnits(t, name, f)
		got[name] = figures{labtest.Stat(t, f, statFirstWord), labtest.Stat(t, f, statLastWord),
			labtest.Stat(t, f, statBursts), labtest.Stat(t, f, statLongest)}
		if why := labtest.StatOf(t, f, statFirstWord).Why; !strings.Contains(why, whyNames[name]) {
			t.Errorf("%s: the first word's arithmetic %q does not say %q", name, why, whyNames[name])
		}
	}
	laptop := got["Works on my laptop"]
	for _, name := range []string{"Works on my laptop", "Fixed: buffering off for the stream route", "Fixed, with the other provider"} {
		g := got[name]
		if g != laptop {
			t.Errorf("%s: %+v, want the laptop's %+v", name, g, laptop)
		}
		if g.bursts != tokens || g.gap > 20 {
			t.Errorf("%s: %v bursts, longest gap %v ms; want one per token, a decode step apart", name, g.bursts, g.gap)
		}
	}
	prod := got["In production behind a buffering proxy"]
	if prod.bursts != 1 || prod.first != prod.last || prod.last != laptop.last {
		t.Errorf("production: %+v, want one burst at the GPU's last token (%v ms)", prod, laptop.last)
	}
	small := got["A smaller proxy buffer"]
	if small.bursts < 2 || small.bursts > 6 || small.first <= laptop.first {
		t.Errorf("small buffer: %+v, want a few lumps", small)
	}
	cut := false
	for _, r := range finals["A smaller proxy buffer"].Tables[2].Rows[:1] {
		cut = cut || !strings.HasSuffix(r[3], `\n\n`)
	}
	if !cut {
		t.Error("small buffer: the first write ends on an event boundary; the note says writes are cut mid-event")
	}
	timer := got["A proxy that flushes on a timer"]
	if timer.gap != 500 || timer.bursts < 4 || math.Abs(timer.first-laptop.first-500) > 1e-6 {
		t.Errorf("timer: %+v, want bursts every 500 ms from the first byte", timer)
	}
}

// TestLessonByteFigures holds the lesson's sentence: the provider's
// OpenAI-style chunks take about 160 bytes a token, the gateway's events
// about 30, about five times fewer.
func TestLessonByteFigures(t *testing.T) {
	fs := runOnVirtualTime(t, labs.Values{})
	final := fs[len(fs)-1]
	prov, gw := bytesPerWrite(t, final.Tables[0].Title), bytesPerWrite(t, final.Tables[1].Title)
	t.Logf("provider %.0f bytes a write, gateway %.0f, ratio %.1f", prov, gw, prov/gw)
	if prov < 140 || prov > 180 || gw < 25 || gw > 35 || prov/gw < 4.5 || prov/gw > 5.5 {
		t.Errorf("provider %.0f, gateway %.0f bytes a write: the lesson says about 160 and 30, five times", prov, gw)
	}
}

// TestTheGatewayHidesTheProvider: the two formats differ on the
// provider's hop and give the same bytes on the gateway's.
func TestTheGatewayHidesTheProvider(t *testing.T) {
	openai := runOnVirtualTime(t, labs.Values{knobProxy: true, knobBuffering: false})
	anthropic := runOnVirtualTime(t, labs.Values{knobProxy: true, knobBuffering: false, knobFormat: "anthropic"})
	a, b := openai[len(openai)-1].Tables, anthropic[len(anthropic)-1].Tables
	if a[0].Title == b[0].Title {
		t.Errorf("both providers wrote %q", a[0].Title)
	}
	if !strings.Contains(b[0].Rows[0][2], "event: message_start") {
		t.Errorf("the Anthropic-style stream opens with %q", b[0].Rows[0][2])
	}
	if a[1].Title != b[1].Title || len(a[1].Rows) != len(b[1].Rows) {
		t.Errorf("the gateway's streams differ: %q vs %q", a[1].Title, b[1].Title)
	}
}

// TestStarvedHandlerKeepsGPUFigures: a handler that takes 200 ms over
// every frame (the lab emits one per 50 ms of GPU time) sees tokens late,
// yet every figure equals the calm run's.
func TestStarvedHandlerKeepsGPUFigures(t *testing.T) {
	for _, changes := range []labs.Values{{}, {knobProxy: true, knobFlush: 500.0}} {
		labtest.CheckStarvedRun(t, onPool, labtest.Values(changes), 200*time.Millisecond)
	}
}

// TestFramesNeverCarryALineEndInACell: raw bytes are shown escaped, so
// nothing a provider sends can start a line of the page's own stream.
func TestFramesNeverCarryALineEndInACell(t *testing.T) {
	fs := runOnVirtualTime(t, labs.Values{knobAnswer: 40.0, knobProxy: true, knobBuffer: 1024.0})
	for _, f := range fs {
		for _, tb := range f.Tables {
			for _, r := range tb.Rows {
				for _, c := range r {
					if strings.ContainsAny(c, "\r\n") {
						t.Fatalf("table %q has a cell with a line end: %q", tb.Title, c)
					}
				}
			}
		}
	}
}

func TestRefusals(t *testing.T) {
	labtest.ExpectRefusals(t, labtest.Inert(t, define), []labtest.Refusal{
		{Name: "unknown format", Vals: labs.Values{knobFormat: "grpc"}, Knob: knobFormat, Want: "not one of"},
		{Name: "buffer too small", Vals: labs.Values{knobBuffer: 10.0}, Knob: knobBuffer, Want: "between"},
		{Name: "negative flush", Vals: labs.Values{knobFlush: -5.0}, Knob: knobFlush, Want: "between"},
		{Name: "answer not a number", Vals: labs.Values{knobAnswer: "long"}, Knob: knobAnswer, Want: "number"},
		{Name: "unknown knob", Vals: labs.Values{"gzip": true}, Want: "not a setting"},
		{Name: "the anthropic format", Vals: labs.Values{knobFormat: "anthropic", knobProxy: true}},
	})
}

// TestLeavingStopsTheRun: a learner who leaves mid-answer ends the run
// with no final frame.
func TestLeavingStopsTheRun(t *testing.T) {
	labtest.CancelMidRun(t, onPool, labs.Values{knobProxy: true}, func(f labs.Frame) bool {
		return strings.Contains(f.Status, "holding")
	})
}

// TestWhatTheReaderSeesWhileItStreams: on the laptop the reader's text
// grows frame by frame; behind the buffering proxy it stays empty, with
// the proxy's growing hoard named, until the final frame shows it all.
func TestWhatTheReaderSeesWhileItStreams(t *testing.T) {
	tests := []struct {
		name  string
		vals  labs.Values
		grows bool
	}{
		{"laptop", labs.Values{}, true},
		{"buffering proxy", labs.Values{knobProxy: true}, false},
		{"proxy with buffering off", labs.Values{knobProxy: true, knobBuffering: false}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := runOnVirtualTime(t, tc.vals)
			live := fs[:len(fs)-1]
			if len(live) < 10 {
				t.Fatalf("%d live frames, want the run to be watched as it goes", len(live))
			}
			var lengths []int
			holding := 0
			for _, f := range live {
				if f.Text != nil {
					lengths = append(lengths, len(f.Text.Body))
				}
				if strings.Contains(f.Status, "the proxy is holding") {
					holding++
				}
			}
			rises := labtest.Rises(lengths)
			if tc.grows && (rises < 5 || holding > 0) {
				t.Errorf("the reader's text grew %d times and %d frames said the proxy held it; want it to grow as it streams", rises, holding)
			}
			if !tc.grows && (rises > 0 || holding < len(live)-2) {
				t.Errorf("the reader's text grew %d times before the end; %d of %d frames said the proxy held it", rises, holding, len(live))
			}
			if final := fs[len(fs)-1]; final.Text == nil || len(strings.Fields(final.Text.Body)) < 100 {
				t.Error("the final frame does not show the whole answer")
			}
		})
	}
}
