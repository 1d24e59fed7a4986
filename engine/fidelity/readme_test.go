package fidelity

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The README quotes the reference set's size and held-out error; it must
// say what the current code computes, not what it computed once.
func TestReadmeQuotesTheReport(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rep := evaluateShipped(t)
	want := fmt.Sprintf("(%d figures from %d publishers; held-out median error %.1f%%)", len(rep.Rows), rep.Set.Publishers(), 100*rep.HeldOutMedian)
	if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), want) {
		t.Errorf("README.md does not say %q", want)
	}
}
