package batching

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

func mustNew(t testing.TB, cfg Config) *Lab { return labtest.Must[*Lab](t)(New(cfg)) }

func parse(t testing.TB, raw labs.Values) (settings, error) {
	return labtest.Parse(t, define, raw, params.settings)
}
