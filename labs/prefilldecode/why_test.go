package prefilldecode

import (
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/labs/labtest"
)

// The first request's TTFT and TPOT carry their roofline arithmetic, and
// it lands on what the request measured.
func TestWhyMatchesTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, _ := newTestLab(t)
		frames := runLab(t, l, labtest.Values(nil))
		last := frames[len(frames)-1]
		labtest.CheckWhy(t, labtest.StatOf(t, last, statTTFT), "compute-bound")
		labtest.CheckWhy(t, labtest.StatOf(t, last, statTPOT), "memory-bound")
	})
}
