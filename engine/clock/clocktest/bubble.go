package clocktest

import (
	"regexp"
	"runtime"
)

// BubbleGoroutines counts the goroutines of testing/synctest bubbles (their
// traceback headers say "synctest bubble N"): with one bubble running, the
// ones a test started and must stop. runtime.NumGoroutine would also count
// whatever an earlier test left winding down outside the bubble, which
// makes a before/after leak check fail now and then on a busy machine.
func BubbleGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return len(bubbleHeader.FindAll(buf[:n], -1))
		}
		buf = make([]byte, 2*len(buf))
	}
}

var bubbleHeader = regexp.MustCompile(`(?m)^goroutine \d+ \[[^\]]*synctest bubble \d+\]:`)
