package prefilldecode

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs/labtest"
)

// onPool is the lab on a given pool, for RunBusy.
var onPool = labtest.OnPool(New, "0a1b2c3d")

// TestStarvedHandlerKeepsGPUFigures: a handler that takes 200 ms over
// every frame (it emits one at the first token, so the decode's tokens,
// ~8 ms apart, pile up behind it) gives the same figures as an unstarved
// one, and only it is told the server was busy.
func TestStarvedHandlerKeepsGPUFigures(t *testing.T) {
	labtest.CheckStarvedRun(t, onPool, labtest.Values(nil), 200*time.Millisecond)
}

// TestSharingNote: alone, no sharing note; with two other learners'
// requests on the engine, a note naming two.
func TestSharingNote(t *testing.T) {
	s, err := parse(t, labtest.Values(nil))
	if err != nil {
		t.Fatal(err)
	}
	labtest.CheckSharingNotes(t, onPool, s.profile, map[int]string{0: "", 2: "2 other requests " + labtest.SharedNote}, false)
}
