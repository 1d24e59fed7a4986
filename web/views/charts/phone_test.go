package charts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// TestTitleWraps holds long titles to the chart's width: on a phone they
// take a second line, and only a title too long for two lines is cut.
func TestTitleWraps(t *testing.T) {
	tests := []struct {
		title string
		w     float64
		lines int
		cut   bool
	}{
		{"Requests through the engine", viewW, 1, false},
		{"One request, stage by stage (wall clock)", viewW, 1, false},
		{"One request, stage by stage (wall clock)", 303, 2, false},
		{"Time to first word, 200 requests (virtual clock)", 303, 2, false},
		{"Time to first word, 200 requests (virtual clock)", minWidth, 2, false},
		{strings.Repeat("very long title words ", 8), minWidth, 2, true},
		{"Supercalifragilisticexpialidociousnessesinmotionpictures", minWidth, 1, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%.0f/%s", tt.w, tt.title[:min(len(tt.title), 20)]), func(t *testing.T) {
			f := newFrame(labs.Chart{Kind: labs.ChartLine, Title: tt.title}, tt.w, viewH, nil, newColours(nil))
			if len(f.TitleLines) != tt.lines {
				t.Fatalf("title in %d lines %q, want %d", len(f.TitleLines), f.TitleLines, tt.lines)
			}
			for _, l := range f.TitleLines {
				if w := textWidth(strings.TrimSpace(l), titleSize*boldScale); w > tt.w-2*pad {
					t.Errorf("line %q is %.0f wide in a %.0f chart", l, w, tt.w)
				}
			}
			joined := strings.Join(f.TitleLines, "")
			if cut := strings.HasSuffix(joined, "…"); cut != tt.cut {
				t.Errorf("title cut = %v (%q), want %v", cut, joined, tt.cut)
			}
			if !tt.cut && joined != strings.TrimSpace(tt.title) {
				t.Errorf("lines %q do not join back to the title", f.TitleLines)
			}
			if wantTop := pad + 18 + titleLineH*float64(tt.lines-1) + 6; f.Plot.T != wantTop {
				t.Errorf("plot starts at %.1f, want %.1f below the title", f.Plot.T, wantTop)
			}
		})
	}
}

// TestMarkLabelsApartOnPhone places the marks of the budget lab's
// waterfall at phone widths: the first word and the end of the answer are
// close on a 4 s axis, and their labels must still not print over each
// other (they once shared a row at 303 units).
func TestMarkLabelsApartOnPhone(t *testing.T) {
	rows := []labs.SpanRow{}
	for i, name := range []string{"guardrail", "history", "retrieval", "order lookup", "prompt + gateway", "first token", "writing"} {
		rows = append(rows, labs.SpanRow{Label: name, Spans: []labs.Span{{Name: name, Start: float64(i * 30), End: float64(i*30 + 80)}}})
	}
	rows[6].Spans[0] = labs.Span{Name: "writing", Start: 240, End: 2550}
	tests := []struct {
		name  string
		w     float64
		marks []labs.Mark
		xmax  float64
	}{
		{"budget waterfall at 303", 303, []labs.Mark{{Label: "first word", At: 240}, {Label: "complete", At: 2550}}, 4000},
		{"budget waterfall at 280", minWidth, []labs.Mark{{Label: "first word", At: 240}, {Label: "complete", At: 2550}}, 4000},
		{"close marks at 303", 303, []labs.Mark{{Label: "first word", At: 900}, {Label: "complete", At: 1300}}, 4000},
		{"three marks at 330", 330, []labs.Mark{{Label: "first word", At: 600}, {Label: "budget", At: 1000}, {Label: "complete", At: 2400}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := labs.Chart{ID: "waterfall", Kind: labs.ChartTimeline, Title: "One request, stage by stage (wall clock)",
				XUnit: "ms", XMax: tt.xmax, XLabel: "time since the request arrived", Rows: rows, Marks: tt.marks}
			v := buildTimeline(c, tt.w)
			if len(v.VMarks) != len(tt.marks) {
				t.Fatalf("%d marks drawn, want %d", len(v.VMarks), len(tt.marks))
			}
			for i, a := range v.VMarks {
				al, ar := labelSpan(a)
				if al < pad-0.5 || ar > tt.w-pad+0.5 {
					t.Errorf("label %q spans %.0f..%.0f, outside the %.0f-wide chart", a.Label, al, ar, tt.w)
				}
				for _, b := range v.VMarks[i+1:] {
					bl, br := labelSpan(b)
					if a.LY == b.LY && al < br && bl < ar {
						t.Errorf("labels %q (%.0f..%.0f) and %q (%.0f..%.0f) overlap on one row", a.Label, al, ar, b.Label, bl, br)
					}
				}
			}
		})
	}
}
