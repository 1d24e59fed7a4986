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
	if slices.Contains(long, true) {
		return ""
	}
	return columnsHint(len(t.Columns))
}

// columnsHint is the scroll line for a table of n columns, or "" when it
// fits a phone.
func columnsHint(n int) string {
	if n < hintColumns {
		return ""
	}
	return fmt.Sprintf("Scroll sideways for all %d columns →", n)
}
