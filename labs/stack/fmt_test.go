package stack

import (
	"fmt"
	"strings"
	"testing"
)

// fmtSscan reads the byte and write counts out of a hop table's title
// ("…, 47,868 bytes in 301 writes (…)").
func fmtSscan(title string, bytes, writes *float64) (int, error) {
	_, rest, _ := strings.Cut(title, "), ")
	if rest == "" {
		_, rest, _ = strings.Cut(title, "provider, ")
	}
	return fmt.Sscanf(strings.ReplaceAll(rest, ",", ""), "%g bytes in %g writes", bytes, writes)
}

// bytesPerWrite is a hop table's bytes ÷ writes, read from its title.
func bytesPerWrite(t *testing.T, title string) float64 {
	t.Helper()
	var b, n float64
	if _, err := fmtSscan(title, &b, &n); err != nil {
		t.Fatalf("title %q: %v", title, err)
	}
	return b / n
}
