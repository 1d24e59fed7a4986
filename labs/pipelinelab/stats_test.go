package pipelinelab

import (
	"math"
	"testing"
)

func TestBinWidth(t *testing.T) {
	for in, want := range map[float64]float64{0: 1, 3: 5, 7: 10, 120: 200, 0.03: 0.05, 1000: 1000} {
		if got := binWidth(in); math.Abs(got-want) > 1e-12 {
			t.Errorf("binWidth(%v) = %v, want %v", in, got, want)
		}
	}
}
