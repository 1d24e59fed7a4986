package views

import (
	"context"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// A table too wide for a phone says, under its title, that it scrolls
// sideways and how many columns it has (the CSS shows the line on phones
// only); a narrow table, or one a phone turns into cards, says nothing.
func TestWideTableSaysItScrolls(t *testing.T) {
	row := func(cells ...string) [][]string { return [][]string{cells} }
	for _, tc := range []struct {
		name  string
		table labs.Table
		want  string
	}{
		{"the batching sweep's ten columns", labs.Table{Title: "Sweep results",
			Columns: []string{"Policy", "Rate (req/s)", "Output tok/s", "TTFT p50 (ms)", "TTFT p95 (ms)", "TPOT p95 (ms)", "Goodput (req/s)", "Good requests", "Duration (ms)", "Preemptions"},
			Rows:    row("static", "2", "492", "30", "57", "9.6", "2", "50", "24000", "0")},
			"Scroll sideways for all 10 columns →"},
		{"three columns fit", labs.Table{Title: "Small", Columns: []string{"Stage", "p50", "p95"}, Rows: row("guardrail", "65", "80")}, ""},
		{"long text becomes cards", labs.Table{Title: "Turns",
			Columns: []string{"Turn", "Role", "Status", "Tokens", "Saved as", "Text"},
			Rows:    row("1", "assistant", "cancelled", "20", "cancelled", strings.Repeat("a long answer ", 10))}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := Tables("lab", []labs.Table{tc.table}).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			got := strings.Contains(html, `class="scroll-hint"`)
			if got != (tc.want != "") || tc.want != "" && !strings.Contains(html, tc.want) {
				t.Errorf("want hint %q, got\n%s", tc.want, html)
			}
			if !strings.Contains(html, "<caption>"+tc.table.Title) {
				t.Errorf("the caption lost its title:\n%s", html)
			}
		})
	}
}

// A run list of two or more runs carries the same line (phones show it
// only while the list overflows); one run has nothing to scroll to.
func TestRunListSaysItScrolls(t *testing.T) {
	for _, tc := range []struct {
		runs int
		want string
	}{{1, ""}, {2, "Scroll sideways for all 2 runs →"}, {4, "Scroll sideways for all 4 runs →"}} {
		r := Runs{Prefix: "lab", Lab: "Toy"}
		for i := range tc.runs {
			r.Cols = append(r.Cols, RunCol{Label: "#" + itoa(i+1), When: "14:03:11"})
		}
		var b strings.Builder
		if err := RunList(r).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		if got := strings.Contains(html, `class="scroll-hint"`); got != (tc.want != "") || tc.want != "" && !strings.Contains(html, tc.want) {
			t.Errorf("%d runs: want hint %q in\n%s", tc.runs, tc.want, html)
		}
	}
}
