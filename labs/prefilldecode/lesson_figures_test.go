package prefilldecode

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/lessons"
)

// TestPresetNotesMatchTheRun checks each claim a preset's note makes
// against what the engine models for it, so a recalibration that breaks
// a note fails here instead of misleading a learner.
func TestPresetNotesMatchTheRun(t *testing.T) {
	l, _ := newTestLab(t)
	ps := l.Presets()
	type figures struct{ ttft, decode time.Duration }
	run := map[string]figures{}
	for _, p := range ps {
		first, _ := modelled(t, mustParse(t, p.Values))
		run[p.Name] = figures{first.TTFT(), first.E2E() - first.TTFT()}
	}
	support, long := run[ps[0].Name], run["Long document (16k)"]
	note := func(name string) string {
		for _, p := range ps {
			if p.Name == name {
				return p.Note
			}
		}
		t.Fatalf("no preset %q", name)
		return ""
	}

	if growth := math.Round(float64(long.ttft) / float64(support.ttft)); growth != 6 || !strings.Contains(note("Long document (16k)"), "sixfold") {
		t.Errorf("long document prefill grows %.0f× (%v → %v); the note says sixfold", growth, support.ttft, long.ttft)
	}
	if long.ttft >= long.decode {
		t.Errorf("long document: prefill %v now exceeds decode %v; the note says decode still takes longer", long.ttft, long.decode)
	}

	h100, _ := engine.LookupHardware("h100-sxm")
	l4, _ := engine.LookupHardware("l4")
	ordinals := map[float64]string{9: "a ninth", 10: "a tenth", 11: "an eleventh", 12: "a twelfth"}
	if want := ordinals[math.Round(h100.MemBandwidthGBs/l4.MemBandwidthGBs)]; want == "" || !strings.Contains(note("Slow GPU (L4)"), want) {
		t.Errorf("the L4 has %.0f/%.0f of the H100's bandwidth; the note should say %q", l4.MemBandwidthGBs, h100.MemBandwidthGBs, want)
	}
}

// TestLessonQuotesTheLabsFigures: the prefill-vs-decode lesson gives the
// default preset's measured decode time per token and prefill time next to
// its back-of-envelope ones; they must match what the lab measures.
func TestLessonQuotesTheLabsFigures(t *testing.T) {
	l, _ := newTestLab(t)
	s := mustParse(t, labtest.Defaults(l))
	first, _ := modelled(t, s)
	tpot := float64(first.E2E()-first.TTFT()) / float64(s.output-1) / float64(time.Millisecond)
	ttft := float64(first.TTFT()) / float64(time.Millisecond)
	lesson, ok := lessons.Get("prefill-vs-decode")
	if !ok {
		t.Fatal("no prefill-vs-decode lesson")
	}
	if want := fmt.Sprintf("<strong>%.1f ms</strong>", tpot); !strings.Contains(lesson.HTML, want) {
		t.Errorf("the lab measures %.2f ms per output token; the lesson should quote %q", tpot, want)
	}
	if ttft < 90 || ttft > 110 || !strings.Contains(lesson.HTML, "about <strong>100 ms</strong>") {
		t.Errorf("the lab measures a %.1f ms prefill; the lesson quotes about 100 ms", ttft)
	}
}

// TestFrameUnits: the final frame keeps the house rules for units, also
// for a one-token answer ("1 token", not "1 tokens").
func TestFrameUnits(t *testing.T) {
	for _, changes := range []labs.Values{{}, {knobOutput: 1.0}} {
		l, _ := newTestLab(t)
		frames := runLab(t, l, labtest.Values(changes))
		labtest.CheckUnits(t, fmt.Sprint(changes), frames[len(frames)-1])
	}
}
