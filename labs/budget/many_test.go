package budget

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// BenchmarkBatch500 times the largest batch (500 requests on the large
// tier at 50 req/s) on the virtual clock.
func BenchmarkBatch500(b *testing.B) {
	s, err := parse(b, labs.Values{knobRequests: 500.0, knobRate: 50.0, knobTier: "large", knobAnswer: 1000.0})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = simulate(b, s)
	}
}
