package views

import (
	"fmt"
	"slices"

	"github.com/latencylab/latencylab/labs"
)

// hintColumns is how many columns make a table wider than a phone, so
// it scrolls sideways there (the label column and three figures fit).
const hintColumns = 6

// scrollHint tells a phone reader that a wide table scrolls sideways and
// how many columns it has; "" for a table that fits, or that a phone
// shows as cards (long text).
func scrollHint(t labs.Table, long []bool) string {
	if len(t.Columns) < hintColumns || slices.Contains(long, true) {
		return ""
	}
	return fmt.Sprintf("Scroll sideways for all %d columns →", len(t.Columns))
}
