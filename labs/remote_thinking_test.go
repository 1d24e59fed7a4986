package labs_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/levers"
	"github.com/latencylab/latencylab/labs/moderation"
	"github.com/latencylab/latencylab/labs/prefilldecode"
	"github.com/latencylab/latencylab/labs/stack"
	"github.com/latencylab/latencylab/labs/streaming"
	"github.com/latencylab/latencylab/labs/timeouts"
)

// runOnServer runs the lab newLab builds with vals on srv, through the
// server's engine pool (inside the caller's synctest bubble), and returns
// its last frame.
func runOnServer(t *testing.T, srv *upstreamtest.Fake, newLab func(*labs.Engines) labs.Lab, vals labs.Values) labs.Frame {
	t.Helper()
	choice, err := labs.NewEngineChoice(labs.UpstreamConfig{
		Client: &upstream.Client{BaseURL: "http://fake/v1", HTTP: upstreamtest.InMemory(srv), RunningCounts: true},
		Model:  "fake-model", Deployment: engine.DefaultConfig(),
	}, labs.EnginesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer choice.Close()
	base := labs.NewEngines(labs.EnginesConfig{})
	defer base.Close()
	r, errs := newLab(base).Decode(vals)
	if len(errs) > 0 {
		t.Fatalf("decode: %v", errs)
	}
	onServer, _ := choice.ServerContext(t.Context())
	var last labs.Frame
	if err := r.Start(onServer, func(f labs.Frame) { last = f }); err != nil || !last.Final || last.Error != "" {
		t.Fatalf("error %v, final %v, frame error %q", err, last.Final, last.Error)
	}
	return last
}

// streamingOnServer runs the streaming lab for answer tokens on srv.
func streamingOnServer(t *testing.T, srv *upstreamtest.Fake, answer int) labs.Frame {
	t.Helper()
	return runOnServer(t, srv, labtest.OnPool(streaming.New, "t"), labs.Values{"streaming": true, "answerTokens": float64(answer)})
}

// On a reasoning model, the streaming lab's first word is the first
// answer token's, as the chat counts it, not the first thinking token's;
// time to first token stays the first token of any kind and says it was
// thinking. When every token the run asked for was thinking, no first
// word is shown and the status says why and what to do. On every server
// the text panel says its words are the lab's, and the why panels say
// where the figures were measured instead of explaining the bundled
// engine's roofline.
func TestServerRunSkipsThinkingForTheFirstWord(t *testing.T) {
	const ttft, gap = 400 * time.Millisecond, 40 * time.Millisecond
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	for _, tc := range []struct {
		name              string
		reasoning, answer int
		// firstWord is when the first answer token arrives; 0: none does.
		firstWord time.Duration
		status    string
	}{
		{"thinks then answers", 20, 60, ttft + 20*gap, "thought for 20 tokens of its 60"},
		{"thinks through every token", 80, 60, 0, "All 60 tokens were thinking; no answer word arrived: raise Answer length."},
		{"no thinking", 0, 60, ttft, "The first word appeared after 400 ms."},
	} {
		for _, format := range upstreamtest.Formats {
			t.Run(tc.name+"/"+string(format), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					last := streamingOnServer(t, &upstreamtest.Fake{Format: format, TTFT: ttft, Gap: gap, Reasoning: tc.reasoning}, tc.answer)
					if got := labtest.Stat(t, last, "ttft_ms"); math.Abs(got-ms(ttft)) > 1e-6 {
						t.Errorf("TTFT %.3f ms, want the first token of any kind at %.3f", got, ms(ttft))
					}
					if got := labtest.Stat(t, last, "tokens"); got != float64(tc.answer) {
						t.Errorf("%v tokens counted, the server wrote %d (thinking included)", got, tc.answer)
					}
					fw, shown := statValue(last, "first_word_ms")
					switch {
					case tc.firstWord == 0 && shown:
						t.Errorf("first word %.1f ms shown, though no answer token arrived", fw)
					case tc.firstWord > 0 && (!shown || math.Abs(fw-ms(tc.firstWord)) > 1e-6):
						t.Errorf("first word %.3f ms (shown %v), want the first answer token's %.3f", fw, shown, ms(tc.firstWord))
					}
					if _, reading := statValue(last, "reading_ms"); tc.firstWord == 0 && (!last.Missed || reading) {
						t.Errorf("no answer word: the run is shown as missed %v (want true), with a reading time %v (want none)", last.Missed, reading)
					}
					if !strings.Contains(last.Status, tc.status) {
						t.Errorf("status %q, want it to hold %q", last.Status, tc.status)
					}
					ttftStat := labtest.StatOf(t, last, "ttft_ms")
					if thinking := strings.Contains(ttftStat.Note, "(thinking)"); thinking != (tc.reasoning > 0) {
						t.Errorf("TTFT note %q: says thinking %v, want %v", ttftStat.Note, thinking, tc.reasoning > 0)
					}
					for _, key := range []string{"ttft_ms", "tpot_ms"} {
						why := labtest.StatOf(t, last, key).Why
						if !strings.Contains(why, "Measured on http://fake/v1 (fake-model)") || strings.Contains(why, "scheduling") || strings.Contains(why, "TFLOP") {
							t.Errorf("%s why %q: want where it was measured, without the bundled engine's roofline", key, why)
						}
					}
					if last.Text == nil || !strings.Contains(last.Text.Note, "stand-in answer") || !strings.Contains(last.Text.Note, "http://fake/v1") {
						t.Errorf("text panel %+v: want a note that the words are the lab's and the timings the server's", last.Text)
					}
				})
			})
		}
	}
}

// statValue is f's stat key and whether f has it.
func statValue(f labs.Frame, key string) (float64, bool) {
	for _, s := range f.Stats {
		if s.Key == key {
			return s.Value, true
		}
	}
	return 0, false
}

// Every lab that shows a first word counts it from the first answer token
// on a reasoning model, through the one place each kind of lab turns
// engine events into text (labs.AnswerText, the pipeline's engine
// provider), and says so in its status; when every token was thinking,
// the status says no answer word arrived and what to do. Each lab runs on
// another server format, so together they cover every format.
func TestServerRunCountsThinkingInEveryLab(t *testing.T) {
	const ttft, gap, thinking = 400 * time.Millisecond, 40 * time.Millisecond, 60
	firstAnswer := float64(ttft+thinking*gap) / float64(time.Millisecond)
	for i, tc := range []struct {
		name string
		mk   func(*labs.Engines) labs.Lab
		vals labs.Values
		// firstWord is the stat holding a first word.
		firstWord string
	}{
		{"budget", labtest.OnFakeDesk(t, budget.New), labs.Values{"answerTokens": 100.0}, "first_word_ms"},
		{"timeouts", labtest.OnFakeDesk(t, timeouts.New), labs.Values{"answerTokens": 100.0}, "first_word_p95_ms"},
		{"moderation", labtest.OnPool(moderation.New, "t"), labs.Values{"answerTokens": 100.0}, "first_word_ms"},
		{"stack", labtest.OnPool(stack.New, "t"), labs.Values{"answerTokens": 100.0}, "first_word_ms"},
	} {
		format := upstreamtest.Formats[i%len(upstreamtest.Formats)]
		for _, reasoning := range []int{thinking, 400} {
			t.Run(fmt.Sprintf("%s/%s/%d thinking", tc.name, format, reasoning), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					last := runOnServer(t, &upstreamtest.Fake{Format: format, TTFT: ttft, Gap: gap, Reasoning: reasoning}, tc.mk, tc.vals)
					if reasoning > 100 {
						if !strings.Contains(last.Status, "no answer word arrived") || !strings.Contains(strings.ToLower(last.Status), "raise answer length") && !strings.Contains(last.Status, "raise the answer length") {
							t.Errorf("status %q: want it to say no answer word arrived and to raise the answer length", last.Status)
						}
						return
					}
					if got := labtest.Stat(t, last, tc.firstWord); got < firstAnswer {
						t.Errorf("%s %.1f ms: before the first answer token at %.1f ms", tc.firstWord, got, firstAnswer)
					}
					if !strings.Contains(last.Status, "thought") {
						t.Errorf("status %q: want it to say the model thought first", last.Status)
					}
					// The answer's rest is its own tokens after the first
					// word: the thinking is already in that word's wait.
					// Moderation counts the answer's tokens as generated
					// and says the thinking was written and paid for too.
					if tc.name == "moderation" {
						want := fmt.Sprintf("%d tokens of thinking", reasoning)
						if note := labtest.StatOf(t, last, "tokens_generated").Note; !strings.Contains(note, want) {
							t.Errorf("tokens generated note %q: want %q", note, want)
						}
					}
					if tc.name == "budget" {
						want := fmt.Sprintf("+ %d more tokens ×", 100-reasoning-1)
						if why := labtest.StatOf(t, last, "complete_ms").Why; !strings.Contains(why, want) {
							t.Errorf("complete's why %q: want %q", why, want)
						}
					}
				})
			})
		}
	}
}

// On a server run, the why panels under measured figures say where they
// were measured and leave the bundled engine's roofline (and its
// "scheduling" remainder) to the bundled engine's own run; no figure the
// server timed is said to be the GPU's.
func TestServerRunWhyPanelsSayWhereMeasured(t *testing.T) {
	fake := func() *upstreamtest.Fake {
		return &upstreamtest.Fake{Format: upstreamtest.VLLM, TTFT: 300 * time.Millisecond, Gap: 30 * time.Millisecond, Reasoning: 5}
	}
	for _, tc := range []struct {
		name string
		mk   func(*labs.Engines) labs.Lab
		vals labs.Values
		// measured say where they were measured; timed name no GPU.
		measured, timed []string
	}{
		{"prefill-decode", labtest.OnPool(prefilldecode.New, "t"), labs.Values{"outputTokens": 40.0},
			[]string{"ttft_ms", "decode_ms", "tpot_ms", "second_ttft_ms"}, []string{"ttft_ms", "decode_ms", "tpot_ms", "second_ttft_ms"}},
		{"stack", labtest.OnPool(stack.New, "t"), labs.Values{"answerTokens": 40.0},
			[]string{"first_word_ms"}, []string{"first_word_ms", "last_word_ms", "longest_gap_ms"}},
		{"streaming", labtest.OnPool(streaming.New, "t"), labs.Values{"answerTokens": 50.0},
			[]string{"ttft_ms", "tpot_ms"}, []string{"first_word_ms", "ttft_ms", "tpot_ms", "total_ms"}},
		{"streaming side by side", labtest.OnPool(streaming.New, "t"), labs.Values{"answerTokens": 50.0, "sideBySide": true},
			nil, []string{"first_word_ms", "streamed_complete_ms", "blocked_complete_ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				last := runOnServer(t, fake(), tc.mk, tc.vals)
				for _, key := range tc.measured {
					if why := labtest.StatOf(t, last, key).Why; !strings.Contains(why, "Measured on http://fake/v1 (fake-model)") || strings.Contains(why, "TFLOP") ||
						strings.Contains(why, "GB/s") || strings.Contains(why, "other requests") {
						t.Errorf("%s why %q: want where it was measured, with no roofline", key, why)
					}
				}
				for _, key := range tc.timed {
					if st := labtest.StatOf(t, last, key); strings.Contains(st.Why+st.Note, "GPU") {
						t.Errorf("%s (note %q, why %q) names the GPU under a server's measurement", key, st.Note, st.Why)
					}
				}
			})
		})
	}
}

// In the levers lab on a reasoning model, a row whose answer was all
// thinking brought no word: it cannot be the best lever for the first
// word, its table cell says so, and its total is the response's real end,
// not zero.
func TestLeversRowWithoutAnAnswerWordWinsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := &upstreamtest.Fake{Format: upstreamtest.Ollama, TTFT: 300 * time.Millisecond, Gap: 30 * time.Millisecond, Reasoning: 60}
		last := runOnServer(t, fake, labtest.OnFakeDesk(t, levers.New), labs.Values{"answerTokens": 100.0, "shortTokens": 50.0})
		if best := labtest.StatOf(t, last, "best_first_word_ms"); best.Note == "Shorter answer" || best.Value <= 0 {
			t.Errorf("best first word %v ms by %q: the all-thinking shorter answer cannot win", best.Value, best.Note)
		}
		var row []string
		for _, tb := range last.Tables {
			for _, r := range tb.Rows {
				if len(r) > 2 && r[0] == "Shorter answer" {
					row = r
				}
			}
		}
		if len(row) < 3 || !strings.Contains(row[1], "no answer word") || strings.HasPrefix(row[2], "0") {
			t.Errorf("shorter answer's row %q: want 'no answer word' for its first word and a total above zero", row)
		}
	})
}
