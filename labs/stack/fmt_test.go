package stack

import (
	"fmt"
	"strings"
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
