package labtest

import (
	"maps"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// OnFreshPool builds a live lab (one wired by labs.LiveConfig, such as
// streaming.New) on a fresh engine pool, closed when t ends, with the
// panel refresh off so only the run's own events emit frames, and its runs
// numbered under tag so its prompts are the same on every test run. Call
// it inside a synctest bubble: the engines then pace on the bubble's
// virtual time, which moves only when every goroutine waits, so the
// handler reads the time exactly when each event is delivered.
func OnFreshPool[L any](t testing.TB, newLab func(labs.LiveConfig) (L, error), tag string) (L, *labs.Engines) {
	t.Helper()
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	return Must[L](t)(newLab(labs.LiveConfig{Engines: pool, Tick: -1, RunTag: tag})), pool
}

// Values returns raw settings with changes applied, in a fresh map the
// test may add to without touching its table: knobs left out keep their
// defaults when decoded.
func Values(changes labs.Values) labs.Values {
	v := labs.Values{}
	maps.Copy(v, changes)
	return v
}
