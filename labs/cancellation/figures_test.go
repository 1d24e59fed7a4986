package cancellation

import (
	"fmt"
	"testing"
)

// TestPrintFigures prints every preset's final frame, measured on the
// virtual clock (go test -run PrintFigures -v ./labs/cancellation/).
func TestPrintFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("figures only")
	}
	l := New(Config{})
	for _, p := range l.Presets() {
		frames := runLab(t, p.Values, nil)
		last := frames[len(frames)-1]
		fmt.Printf("== %s (%d frames)\n%s\n", p.Name, len(frames), last.Status)
		for _, s := range last.Stats {
			fmt.Printf("  %-24s %8.1f %s  (%s)\n", s.Key, s.Value, s.Unit, s.Note)
		}
		fmt.Printf("  text: %.200q\n", last.Text.Body)
		fmt.Printf("  marks: %v\n", last.Text.Marks)
		for _, tb := range last.Tables {
			fmt.Printf("  %s\n    %v\n", tb.Title, tb.Columns)
			for _, r := range tb.Rows {
				fmt.Printf("    %q\n", r)
			}
		}
	}
}
