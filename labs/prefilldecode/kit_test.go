package prefilldecode

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// mustNew builds the lab, failing t when cfg is refused.
func mustNew(t testing.TB, cfg Config) *Lab {
	t.Helper()
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// parse decodes raw settings as a run would and derives the run's settings.
func parse(t testing.TB, raw labs.Values) (settings, error) {
	p, err := labtest.Inert(t, define).Params(raw)
	if err != nil {
		return settings{}, err
	}
	return p.settings()
}
