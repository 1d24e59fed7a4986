package timeouts

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// runLab runs the lab once on the fake desk with the timeline's refresh
// off: the pipeline's waits, the injected faults and the live engines'
// pacing are all on virtual time, so every figure is exact and a 25-second
// batch takes no real time.
var runLab = labtest.RunsOnFakeDesk(func(cfg Config) (*Lab, error) { return newLab(cfg, 0) })

// presetFinal runs preset i (see runLab) and returns its final frame.
func presetFinal(t *testing.T, i int) labs.Frame {
	t.Helper()
	frames := runLab(t, labtest.Inert(t, define).Presets()[i].Values)
	return frames[len(frames)-1]
}

func TestKnobsAndPresetsValidate(t *testing.T) {
	labtest.CheckDeclaration(t, labtest.Inert(t, define),
		labtest.Entry{Slug: Slug, Lesson: "timeouts-and-deadlines", PredictionStat: statFirstWordP95})
}

func TestBadSettingsEndInAMessage(t *testing.T) {
	// No engines: a bad setting must not get that far.
	labtest.ExpectRefusals(t, labtest.Inert(t, define), []labtest.Refusal{
		{Name: "unknown fault", Vals: labs.Values{knobFault: "meteor"}, Want: "Slowdown"},
		{Name: "too many requests", Vals: labs.Values{knobRequests: 5000.0}, Want: "between 10 and 50"},
		{Name: "negative timeout", Vals: labs.Values{knobFTT: -1.0}, Want: "between 0 and 30"},
		{Name: "not a number", Vals: labs.Values{knobDeadline: "soon"}, Want: "must be a number"},
	})
}

// The fallback preset end to end: stats, timeline and comparison agree
// with what the pipeline did.
func TestFallbackPresetFrames(t *testing.T) {
	last := presetFinal(t, 1)
	if got := labtest.Stat(t, last, statFallback); got != 30 {
		t.Errorf("fallback share %v%%, want 30%% (the slowed share)", got)
	}
	if p95 := labtest.Stat(t, last, statFirstWordP95); p95 < 5000 || p95 > 6000 {
		t.Errorf("p95 first word %v ms, want just above the 5 s timeout", p95)
	}
	for _, key := range []string{statErrors, statTimeouts, statCut} {
		if got := labtest.Stat(t, last, key); got != 0 {
			t.Errorf("%s = %v, want 0", key, got)
		}
	}
	if len(last.Charts) != 1 || len(last.Charts[0].Rows) != 20 {
		t.Fatalf("charts %+v, want one timeline with 20 rows", last.Charts)
	}
	backupRows := 0
	for _, row := range last.Charts[0].Rows {
		for _, sp := range row.Spans {
			if sp.Name == spanWriting(pipelinelab.TierSmall) {
				backupRows++
				if !strings.HasSuffix(row.Label, "slowed") {
					t.Errorf("row %s has a backup answer but was not slowed", row.Label)
				}
			}
		}
	}
	if backupRows != 6 {
		t.Errorf("%d rows answered by small, want 6", backupRows)
	}
	if len(last.Tables) != 2 || len(last.Tables[0].Rows) != 3 || len(last.Tables[1].Rows) != 6 {
		t.Fatalf("tables %+v, want a 3-row comparison and 6 retries", last.Tables)
	}
	noTimeout := last.Tables[0].Rows[1]
	if !strings.HasPrefix(noTimeout[0], "No timeout") || !strings.HasPrefix(noTimeout[1], "8.") {
		t.Errorf("no-timeout row %v, want a p95 first word past the 8 s slowdown", noTimeout)
	}
	web := last.Tables[0].Rows[2]
	if web[6] != "14 of 14" {
		t.Errorf("web-service row %v, want every healthy 200-token answer cut", web)
	}
}

// With a one-second limit on the whole call no 200-token answer
// completes: the healthy ones are cut, and no completion percentile is
// made up from nothing.
func TestWebServicePresetCutsHealthyAnswers(t *testing.T) {
	last := presetFinal(t, 2)
	if got := labtest.Stat(t, last, statCut); got != 14 {
		t.Errorf("healthy answers cut = %v, want all 14", got)
	}
	if got := labtest.Stat(t, last, statTimeouts); got != 20 {
		t.Errorf("timeouts = %v, want 20", got)
	}
	for _, s := range last.Stats {
		if s.Key == statCompleteP95 {
			t.Errorf("a completion p95 of %v ms with no complete answer", s.Value)
		}
	}
	if c := last.Charts[0]; c.XMax > 5000 {
		t.Errorf("final timeline axis ends at %v ms, want it fitted to a batch that is over within 5 s", c.XMax)
	}
}

// On a host whose every wait ends 150 ms late (stages, network legs, the
// faults' delays and the engine's runner scheduled late) the timeouts fire
// on the modelled timeline, so fallbacks, timeouts and the first-word
// percentiles are the calm run's, and only the starved run says the
// server was busy. The hosted preset keeps its other tenants: the
// provider's engines add them on their own modelled clock and take each
// call at the moment the modelled timeline sends it.
func TestStarvedHostKeepsFigures(t *testing.T) {
	newLab := labtest.OnFakeDesk(t, func(cfg Config) (*Lab, error) { return newLab(cfg, 0) })
	labtest.CheckStarvedPresets(t, newLab, labtest.Inert(t, define), nil,
		150*time.Millisecond, 0.002, 0, "", "5 s first-token timeout with fallback", hostedPreset)
}

// A request sent to the backup is not one the backup answered: with the
// retry at 18 s of a 20 s deadline the backup starts all six slowed
// requests and completes none, and card, formula and status say so, so
// the status's counts add up to the batch.
func TestBackupSentIsNotCompleted(t *testing.T) {
	for _, tc := range []struct {
		preset     int
		note, stat string
	}{
		{1, "6 of 20 requests; the backup completed 6", "20 of 20 complete, 0 errors, 0 timeouts. 6 of the 20 went to the backup: it completed 6."},
		{3, "6 of 20 requests; the backup completed 0 and a time limit cut off 6", "14 of 20 complete, 0 errors, 6 timeouts. 6 of the 20 went to the backup: it completed 0 and a time limit cut off 6."},
	} {
		t.Run(strconv.Itoa(tc.preset), func(t *testing.T) {
			last := presetFinal(t, tc.preset)
			card := labtest.StatOf(t, last, statFallback)
			if card.Label != "Sent to the backup" || card.Note != tc.note {
				t.Errorf("card %q, note %q; want %q, %q", card.Label, card.Note, "Sent to the backup", tc.note)
			}
			if !strings.Contains(last.Status, tc.stat) {
				t.Errorf("status %q lacks %q", last.Status, tc.stat)
			}
			if strings.Contains(card.Why, "answered") {
				t.Errorf("the formula still counts requests as answered: %s", card.Why)
			}
		})
	}
}

// The backup's outcome names every way its answers ended, and a batch
// that sent nothing there says so plainly.
func TestBackupOutcomeWording(t *testing.T) {
	for _, tc := range []struct {
		sm         summary
		note, cell string
	}{
		{summary{n: 20}, "0 of 20 requests", "0"},
		{summary{n: 20, sent: 6, sentDone: 6}, "6 of 20 requests; the backup completed 6", "6 (30%), 6 completed"},
		{summary{n: 20, sent: 5, sentDone: 3, sentCut: 1, sentFailed: 1}, "5 of 20 requests; the backup completed 3, a time limit cut off 1 and 1 failed", "5 (25%), 3 completed"},
	} {
		if got := sentNote(tc.sm); got != tc.note {
			t.Errorf("note %q, want %q", got, tc.note)
		}
		if got := sentCell(tc.sm); got != tc.cell {
			t.Errorf("cell %q, want %q", got, tc.cell)
		}
	}
}
