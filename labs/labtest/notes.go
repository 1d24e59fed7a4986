package labtest

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// CheckStarvedRun runs vals once calmly and once with a consumer that
// takes consume over every frame: every figure must match (they are the
// GPU's), and only the starved run may say the server was busy.
func CheckStarvedRun(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, consume time.Duration) {
	t.Helper()
	calm := RunBusy(t, newLab, vals, Busy{})
	starved := RunBusy(t, newLab, vals, Busy{Consume: consume})
	CheckGPUFigures(t, calm, starved)
	t.Log(calm.Status, " || ", starved.Status)
	if HasNote(calm, BusyNote) {
		t.Errorf("unstarved run says the server was busy: %q", calm.Status)
	}
	if !HasNote(starved, BusyNote) {
		t.Errorf("starved run does not say the server was busy: %q", starved.Status)
	}
}

// RunBeside runs vals with others requests of other learners (2,000-token
// prompts, 600-token answers) submitted to the same engine just before
// it, and returns the final frame.
func RunBeside(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, p labs.Profile, others int, consume time.Duration) labs.Frame {
	t.Helper()
	return RunBusy(t, newLab, vals, Busy{Consume: consume, Beside: func(ctx context.Context, pool *labs.Engines) {
		for i := range others {
			Competitor(t, ctx, pool, p, "other-"+string(rune('a'+i)), 2000, 600)
		}
	}})
}

// CheckSharingNote checks a final frame's sharing note: none when want is
// empty, else want in the status (and, with cost, what sharing added).
func CheckSharingNote(t *testing.T, final labs.Frame, want string, cost bool) {
	t.Helper()
	t.Log(final.Status)
	if want == "" {
		if HasNote(final, SharedNote) {
			t.Errorf("a lone run mentions sharing: %q", final.Status)
		}
		return
	}
	if !HasNote(final, want) || (cost && !HasNote(final, "which added ~")) {
		t.Errorf("status %q, want %q (and what it added: %v)", final.Status, want, cost)
	}
}

// OnPool adapts a live lab's constructor to RunBusy: the lab on pool,
// without a panel ticker, with a fixed run tag.
func OnPool[L labs.Lab](newLab func(labs.LiveConfig) (L, error), tag string) func(*labs.Engines) labs.Lab {
	return func(pool *labs.Engines) labs.Lab {
		l, err := newLab(labs.LiveConfig{Engines: pool, Tick: -1, RunTag: tag})
		if err != nil {
			panic(err)
		}
		return l
	}
}

// CheckSharingNotes runs the lab's defaults beside n other learners'
// requests for each n in want and checks the note want[n] (none for "").
func CheckSharingNotes(t *testing.T, newLab func(*labs.Engines) labs.Lab, p labs.Profile, want map[int]string, cost bool) {
	t.Helper()
	for n, note := range want {
		t.Run(fmt.Sprintf("%d others", n), func(t *testing.T) {
			CheckSharingNote(t, RunBeside(t, newLab, Values(nil), p, n, 0), note, cost)
		})
	}
}

// CheckStarvedHost runs vals once calmly and once on a host whose every
// wait ends late by late (stages, network legs and the engine's runner
// scheduled late): every time and count figure must match, since they
// are the modelled ones, and only the starved run may say the server was
// busy. It returns both final frames.
func CheckStarvedHost(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, late time.Duration) (calm, starved labs.Frame) {
	t.Helper()
	calm = RunBusy(t, newLab, vals, Busy{})
	starved = RunBusy(t, newLab, vals, Busy{Late: late})
	CheckGPUFigures(t, calm, starved)
	checkBusyNotes(t, calm, starved)
	return calm, starved
}

// DecodeStep is one decode step of the labs' default deployment (an 8B
// model on one H100 takes 7.7–7.9 ms): the most a late submission moves a
// figure by when it joins the next step of a shared batch.
const DecodeStep = 8 * time.Millisecond

// CheckStarvedHostWithin is CheckStarvedHost for a lab whose requests
// share a live engine's batch with each other: when a request reaches the
// engine is the host's, so a late host can move which step it joins and
// its figures by a fraction of a step. Each time figure must stay within
// share of the calm run's plus slack (e.g. DecodeStep). The calm run must not say the server was busy;
// the starved one says so only when the lateness passed labs.BusyShare of
// the run, which a long run may not reach.
func CheckStarvedHostWithin(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, late time.Duration, share float64, slack time.Duration) {
	t.Helper()
	calm := RunBusy(t, newLab, vals, Busy{})
	starved := RunBusy(t, newLab, vals, Busy{Late: late})
	got := StatMap(t, starved)
	for _, s := range calm.Stats {
		if s.Unit != "ms" && s.Unit != "s" {
			continue
		}
		allowed := share*math.Abs(s.Value) + labs.Millis(slack)
		if s.Unit == "s" {
			allowed = share*math.Abs(s.Value) + slack.Seconds()
		}
		if g := got[s.Key]; math.Abs(g-s.Value) > allowed {
			t.Errorf("%s: %v %s on a starved host, %v %s on a calm one (more than %.2f%% + %v apart)", s.Key, g, s.Unit, s.Value, s.Unit, 100*share, slack)
		}
	}
	if HasNote(calm, BusyNote) {
		t.Errorf("unstarved run says the server was busy: %q", calm.Status)
	}
	t.Log(starved.Status)
}

// checkBusyNotes: only the starved run may say the server was busy.
func checkBusyNotes(t *testing.T, calm, starved labs.Frame) {
	t.Helper()
	if HasNote(calm, BusyNote) {
		t.Errorf("unstarved run says the server was busy: %q", calm.Status)
	}
	if !HasNote(starved, BusyNote) {
		t.Errorf("starved run does not say the server was busy: %q", starved.Status)
	}
}

// CheckStarvedPresets runs CheckStarvedHost on each named preset of l
// ("" for the defaults), with changes on top (nil for none).
// share and slack, when above 0, allow each time figure that much relative
// and absolute change (see CheckStarvedHostWithin).
func CheckStarvedPresets(t *testing.T, newLab func(*labs.Engines) labs.Lab, l labs.Lab, changes labs.Values, late time.Duration, share float64, slack time.Duration, names ...string) {
	t.Helper()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			vals := Values(changes)
			if name != "" {
				vals = PresetWith(t, l, name)(changes)
			}
			if share > 0 || slack > 0 {
				CheckStarvedHostWithin(t, newLab, vals, late, share, slack)
				return
			}
			CheckStarvedHost(t, newLab, vals, late)
		})
	}
}
