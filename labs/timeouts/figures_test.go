package timeouts

import (
	"fmt"
	"testing"
)

// TestPrintFigures prints every preset's final frame on the virtual clock
// (go test -run PrintFigures -v ./labs/timeouts/), for the report.
func TestPrintFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("figures only")
	}
	l := New(Config{})
	for _, p := range l.Presets() {
		f := runLab(t, p.Values)
		last := f[len(f)-1]
		fmt.Printf("== %s\n%s\n", p.Name, last.Status)
		for _, s := range last.Stats {
			fmt.Printf("  %-18s %10.1f %s  (%s)\n", s.Key, s.Value, s.Unit, s.Note)
		}
		for _, tb := range last.Tables {
			fmt.Printf("  %s\n    %v\n", tb.Title, tb.Columns)
			for _, r := range tb.Rows {
				fmt.Printf("    %v\n", r)
			}
		}
	}
}
