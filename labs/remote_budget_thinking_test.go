package labs_test

import (
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/labtest"
)

// On a server, the budget lab's one request shows a reasoning model's
// thinking as the panels count it: its own row in the waterfall, from the
// first token to the first word, the writing row after it, and the stage
// table's model row named "to the first word (thinking included)". When
// every token was thinking, no first-word card or mark is shown and the
// complete card is the last token's time, its formula coming to it.
func TestBudgetOnAThinkingServerDrawsThinkingApart(t *testing.T) {
	const ttft, gap = 400 * time.Millisecond, 40 * time.Millisecond
	for _, tc := range []struct {
		name              string
		reasoning, answer int
		// modelRow is the stage table's model row; empty: no table.
		modelRow string
	}{
		{"thinks then answers", 60, 100, "model: to the first word (thinking included)"},
		{"thinks through every token", 60, 50, ""},
		{"no thinking", 0, 100, "model: to the first word"},
	} {
		for i, format := range upstreamtest.Formats {
			if i > 0 && tc.reasoning == 0 {
				break // without thinking the formats do not differ here
			}
			t.Run(tc.name+"/"+string(format), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					fake := &upstreamtest.Fake{Format: format, TTFT: ttft, Gap: gap, Reasoning: tc.reasoning}
					last := runOnServer(t, fake, labtest.OnFakeDesk(t, budget.New), labs.Values{"answerTokens": float64(tc.answer), "requests": 20.0})
					complete := labtest.StatOf(t, last, "complete_ms")
					labtest.CheckFormula(t, complete, 0.02)
					wf := labtest.Chart(t, last, "waterfall")
					rows := map[string][]labs.Span{}
					var writingStart, end float64
					for _, r := range wf.Rows {
						rows[r.Label] = r.Spans
						for _, sp := range r.Spans {
							end = max(end, sp.End)
						}
					}
					if ws := rows["writing"]; len(ws) > 0 {
						writingStart = ws[0].Start
					}
					if math.Abs(complete.Value-end) > 0.1 {
						t.Errorf("complete card %.1f ms, the request's last span ends at %.1f", complete.Value, end)
					}
					marks := map[string]float64{}
					for _, m := range wf.Marks {
						marks[m.Label] = m.At
					}
					if math.Abs(marks["complete"]-complete.Value) > 0.1 {
						t.Errorf("complete mark at %.1f ms, card %.1f", marks["complete"], complete.Value)
					}
					fw, shown := statValue(last, "first_word_ms")
					_, marked := marks["first word"]
					thinking, drawn := rows["thinking"]
					switch {
					case tc.answer <= tc.reasoning:
						if shown || marked || len(rows["writing"]) > 0 {
							t.Errorf("no answer word, yet a first-word card %v (%.1f ms), mark %v or writing span %v", shown, fw, marked, rows["writing"])
						}
						if !drawn || math.Abs(thinking[0].End-end) > 0.1 {
							t.Errorf("thinking row %v: want it to run to the request's end %.1f ms", thinking, end)
						}
					case tc.reasoning > 0:
						if !drawn || math.Abs(thinking[0].End-fw) > 1 || math.Abs(writingStart-fw) > 1 || math.Abs(marks["first word"]-fw) > 0.1 {
							t.Errorf("thinking %v, writing from %.1f, first-word mark %.1f: want thinking to end and writing to start at the first word %.1f ms",
								thinking, writingStart, marks["first word"], fw)
						}
					default:
						if drawn {
							t.Errorf("a thinking row %v on a model that did not think", thinking)
						}
					}
					if tc.modelRow == "" {
						return
					}
					if len(last.Tables) == 0 {
						t.Fatal("no stage table")
					}
					var names []string
					for _, row := range last.Tables[0].Rows {
						names = append(names, row[0])
					}
					if !strings.Contains(strings.Join(names, "|"), "|"+tc.modelRow+"|") {
						t.Errorf("stage table rows %q: want %q", names, tc.modelRow)
					}
				})
			})
		}
	}
}
