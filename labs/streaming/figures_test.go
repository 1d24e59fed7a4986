package streaming

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestRealClockFigures logs what the handler measures for each preset on
// the wall clock. It takes about a minute, so it runs only when asked:
//
//	LATENCYLAB_FIGURES=1 go test ./labs/streaming -run RealClock -v
func TestRealClockFigures(t *testing.T) {
	labtest.RunPresetsOnWallClock(t, func(pool *labs.Engines) labtest.Lab { return mustNew(t, Config{Engines: pool}) })
}
