package prefilldecode

import "testing"

// mustNew builds the lab, failing t when cfg is refused.
func mustNew(t testing.TB, cfg Config) *Lab {
	t.Helper()
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
