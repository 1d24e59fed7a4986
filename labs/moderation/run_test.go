package moderation

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// runLab runs the lab once inside a synctest bubble, where the live
// engine's wall clock and the moderation latency are virtual and exact.
// It returns every frame and the pool's engine stats after the run.
func runLab(t *testing.T, changes labs.Values) ([]labs.Frame, *labs.Engines) {
	t.Helper()
	var frames []labs.Frame
	var pool *labs.Engines
	synctest.Test(t, func(t *testing.T) {
		var l *Lab
		l, pool = labtest.OnFreshPool(t, New, "test")
		if err := l.Run(context.Background(), labtest.Values(changes), func(f labs.Frame) { frames = append(frames, f) }); err != nil {
			t.Fatal(err)
		}
		// Let an aborted request's step run, then look at the engine.
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		s, err := parse(t, labtest.Values(changes))
		if err != nil {
			t.Fatal(err)
		}
		le, err := pool.Get(s.profile)
		if err != nil {
			t.Fatal(err)
		}
		if st := le.Stats(); st.Running != 0 || st.Waiting != 0 || st.KVUsage != 0 {
			t.Errorf("engine after the run: %d running, %d waiting, KV usage %.3f; want all free", st.Running, st.Waiting, st.KVUsage)
		}
	})
	if len(frames) == 0 || !frames[len(frames)-1].Final {
		t.Fatalf("run ended without a final frame")
	}
	for _, f := range frames[:len(frames)-1] {
		if f.Final {
			t.Fatal("a final frame before the last")
		}
	}
	return frames, pool
}

func marks(f labs.Frame) map[string]float64 {
	out := map[string]float64{}
	for _, m := range f.Text.Marks {
		out[m.Label] = m.At
	}
	return out
}

// TestLeakScenario runs the leak scenario under every policy: the answer
// repeats a customer's e-mail and card number.
func TestLeakScenario(t *testing.T) {
	got := map[mod.Policy]map[string]float64{}
	final := map[mod.Policy]labs.Frame{}
	for _, p := range mod.Policies() {
		t.Run(string(p), func(t *testing.T) {
			frames, _ := runLab(t, labs.Values{knobPolicy: string(p)})
			f := frames[len(frames)-1]
			if f.Error != "" {
				t.Fatalf("error %q", f.Error)
			}
			st := labtest.StatMap(t, f)
			for _, k := range []string{statFirstWord, statLeaked, statAfterProblem, statLag, statTotal, statChecks, statModeration, statGenerated} {
				if _, ok := st[k]; !ok {
					t.Errorf("stat %s missing", k)
				}
			}
			got[p], final[p] = st, f
			t.Logf("%s: %v\n%s", p, st, f.Status)
		})
	}
	if t.Failed() {
		return
	}
	answer := got[mod.NoModeration][statGenerated]
	// What reaches the reader.
	for p, want := range map[mod.Policy]bool{mod.NoModeration: true, mod.StreamThenModerate: true,
		mod.ModerateThenSend: false, mod.BufferedWindow: false, mod.AbortMidStream: false} {
		if leaked := got[p][statLeaked] > 0; leaked != want {
			t.Errorf("%s: %v unsafe tokens shown, want leak %v", p, got[p][statLeaked], want)
		}
	}
	// What the wait costs: the window trails by about one window, the
	// full check by the whole answer.
	if !(got[mod.NoModeration][statFirstWord] < got[mod.BufferedWindow][statFirstWord] &&
		got[mod.BufferedWindow][statFirstWord] < got[mod.ModerateThenSend][statFirstWord]) {
		t.Errorf("first word: none %v, window %v, moderate-then-send %v; want increasing",
			got[mod.NoModeration][statFirstWord], got[mod.BufferedWindow][statFirstWord], got[mod.ModerateThenSend][statFirstWord])
	}
	if got[mod.NoModeration][statChecks] != 0 || got[mod.ModerateThenSend][statChecks] != 1 {
		t.Errorf("checks: none %v, moderate-then-send %v; want 0 and 1", got[mod.NoModeration][statChecks], got[mod.ModerateThenSend][statChecks])
	}
	// What not aborting costs: only the abort stops generation.
	for _, p := range []mod.Policy{mod.NoModeration, mod.StreamThenModerate, mod.ModerateThenSend, mod.BufferedWindow} {
		if got[p][statGenerated] != answer {
			t.Errorf("%s generated %v tokens, want the whole answer (%v)", p, got[p][statGenerated], answer)
		}
	}
	if a := got[mod.AbortMidStream]; a[statGenerated] >= answer || a[statAfterProblem] >= got[mod.BufferedWindow][statAfterProblem] {
		t.Errorf("abort generated %v of %v tokens, %v after the problem (window: %v)", a[statGenerated], answer, a[statAfterProblem], got[mod.BufferedWindow][statAfterProblem])
	}
	// What the reader is left with.
	if body := final[mod.AbortMidStream].Text.Body; body != mod.DefaultFallback {
		t.Errorf("abort left %q on screen, want the fallback", body)
	}
	if body := final[mod.BufferedWindow].Text.Body; strings.Contains(body, "@") || !strings.HasSuffix(body, mod.DefaultNotice) {
		t.Errorf("window left %q on screen", body)
	}
	if m := marks(final[mod.StreamThenModerate]); !(m[markUnsafeShown] < m[markCaught] && m[markCaught] <= m[markReplaced]) {
		t.Errorf("stream-then-moderate marks %v: want unsafe text shown, then caught, then replaced", m)
	}
	if _, shown := marks(final[mod.BufferedWindow])[markUnsafeShown]; shown {
		t.Error("buffered window: unsafe text shown mark present")
	}
}

// TestAbortCancelsEngineRequest checks that a failed window ends the
// engine request early, and runLab checks the engine freed its blocks.
func TestAbortCancelsEngineRequest(t *testing.T) {
	frames, _ := runLab(t, labs.Values{knobPolicy: string(mod.AbortMidStream), knobWindow: 8.0, knobOverlap: 8.0, knobLatency: 0.0})
	f := frames[len(frames)-1]
	st := labtest.StatMap(t, f)
	req := buildRequest(scenarios[scenarioLeak], "Session x")
	if st[statGenerated] >= float64(len(req.answer.Tokens)) {
		t.Errorf("generated %v of %d tokens despite the abort", st[statGenerated], len(req.answer.Tokens))
	}
	if _, ok := marks(f)[markAborted]; !ok {
		t.Errorf("no aborted mark in %v", f.Text.Marks)
	}
}

func TestPromptInjection(t *testing.T) {
	t.Run("prompt check refuses", func(t *testing.T) {
		frames, _ := runLab(t, labs.Values{knobScenario: scenarioInjection, knobPromptCheck: true, knobPolicy: string(mod.AbortMidStream)})
		f := frames[len(frames)-1]
		st := labtest.StatMap(t, f)
		if st[statGenerated] != 0 || st[statLeaked] != 0 || st[statChecks] != 1 {
			t.Errorf("stats %v: want nothing generated, one check", st)
		}
		if f.Text.Body != mod.DefaultRefusal || st[statFirstWord] != 50 {
			t.Errorf("body %q, first word %v ms; want the refusal after the 50 ms check", f.Text.Body, st[statFirstWord])
		}
	})
	t.Run("output check catches it", func(t *testing.T) {
		frames, _ := runLab(t, labs.Values{knobScenario: scenarioInjection, knobPolicy: string(mod.AbortMidStream)})
		f := frames[len(frames)-1]
		st := labtest.StatMap(t, f)
		if st[statGenerated] == 0 || st[statLeaked] != 0 || !strings.Contains(f.Status, "policy.") {
			t.Errorf("stats %v, status %q: want generation, no leak, a policy category", st, f.Status)
		}
	})
}

func TestCleanScenario(t *testing.T) {
	want := buildRequest(scenarios[scenarioClean], "Session x").answer.Text
	for _, p := range mod.Policies() {
		t.Run(string(p), func(t *testing.T) {
			frames, _ := runLab(t, labs.Values{knobScenario: scenarioClean, knobPolicy: string(p), knobPromptCheck: true})
			f := frames[len(frames)-1]
			st := labtest.StatMap(t, f)
			if f.Text.Body != want || st[statLeaked] != 0 || st[statAfterProblem] != 0 {
				t.Errorf("body %q, stats %v", f.Text.Body, st)
			}
		})
	}
}

// TestSentenceWindow runs the buffered window in whole sentences: the
// sentence with the e-mail and card never reaches the reader, and every
// delivery before it ends a sentence.
func TestSentenceWindow(t *testing.T) {
	frames, _ := runLab(t, labs.Values{knobPolicy: string(mod.BufferedWindow), knobUnit: string(mod.Sentences), knobWindow: 1.0, knobOverlap: 0.0})
	f := frames[len(frames)-1]
	st := labtest.StatMap(t, f)
	body := strings.TrimSuffix(f.Text.Body, "\n\n"+mod.DefaultNotice)
	if st[statLeaked] != 0 || body == f.Text.Body || !strings.HasSuffix(body, ".") {
		t.Errorf("leaked %v, body %q: want whole sentences then the notice", st[statLeaked], f.Text.Body)
	}
}

func TestCompare(t *testing.T) {
	frames, _ := runLab(t, labs.Values{knobPolicy: policyCompare})
	f := frames[len(frames)-1]
	if len(f.Tables) != 1 || len(f.Tables[0].Rows) != len(mod.Policies()) {
		t.Fatalf("tables %+v", f.Tables)
	}
	for i, row := range f.Tables[0].Rows {
		t.Logf("%v", row)
		leaked := row[2] != "0"
		if want := i < 2; leaked != want { // none and stream-then-moderate leak
			t.Errorf("row %q: leak %v, want %v", row[0], leaked, want)
		}
	}
	if len(f.Charts) != 1 || len(f.Charts[0].Series) != len(mod.Policies())+1 {
		t.Errorf("chart series %d", len(f.Charts[0].Series))
	}
}

func TestCancelledRunFreesEngine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, pool := labtest.OnFreshPool(t, New, "test")
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(60 * time.Millisecond); cancel() }()
		err := l.Run(ctx, labtest.Values(labs.Values{knobPolicy: string(mod.ModerateThenSend)}), func(labs.Frame) {})
		if err != context.Canceled {
			t.Fatalf("Run = %v, want context.Canceled", err)
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		le, _ := pool.Get(labs.Profile{Hardware: defaults.gpu, Model: defaults.model})
		if st := le.Stats(); st.Running != 0 || st.KVUsage != 0 {
			t.Errorf("engine after cancel: %d running, KV %.3f", st.Running, st.KVUsage)
		}
	})
}

func TestSettingsErrors(t *testing.T) {
	l := labtest.Inert(t, define)
	var frames []labs.Frame
	err := l.Run(context.Background(), labtest.Values(labs.Values{knobModel: "llama-3.1-70b", knobGPU: "l4"}), func(f labs.Frame) { frames = append(frames, f) })
	if err != nil || len(frames) != 1 || !frames[0].Final || !strings.Contains(frames[0].Error, "does not fit") {
		t.Fatalf("err %v, frames %+v", err, frames)
	}
	if errs := labtest.FieldErrors(l, labtest.Values(labs.Values{knobWindow: 500.0})); len(errs) != 1 || errs[0].Knob != knobWindow {
		t.Errorf("Check(window 500) = %v", errs)
	}
}

func TestInfoKnobsPresets(t *testing.T) {
	labtest.CheckDeclaration(t, labtest.Inert(t, define), labtest.Entry{Slug: "moderation", Lesson: "moderation-and-streaming", PredictionStat: statLeaked,
		Presets: []string{"Leak: stream then moderate", "Moderate then send", "Buffered window", "Abort mid-stream", "Prompt injection", "Compare all policies", hostedPreset, hostedWindowPreset}})
}

// An answer length of 0 means "as long as the notes make it", not an
// empty answer, so the knob's readout says so at 0 instead of "0 tokens".
func TestAnswerLengthZeroReadsAsNatural(t *testing.T) {
	for _, k := range labtest.Inert(t, define).Knobs() {
		if k.Name == knobAnswer {
			if k.ZeroLabel != "as the notes run" {
				t.Errorf("answer length at 0 reads %q, want %q", k.ZeroLabel, "as the notes run")
			}
			return
		}
	}
	t.Fatal("no answer length knob")
}
