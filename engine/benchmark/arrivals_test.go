package benchmark

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestArrivalsInfAllAtZero(t *testing.T) {
	for _, a := range Arrivals(50, math.Inf(1), 1, rand.New(rand.NewPCG(1, 2))) {
		if a != 0 {
			t.Fatalf("rate inf arrival at %v, want 0", a)
		}
	}
}

// The gaps of a gamma process with shape k have coefficient of variation
// 1/√k: burstiness 1 is Poisson (CV 1), lower is burstier, higher smoother.
func TestArrivalsStatistics(t *testing.T) {
	const n = 20000
	for _, c := range []struct{ rate, burst float64 }{
		{10, 1}, {10, 0.25}, {10, 4}, {2.5, 1},
	} {
		arr := Arrivals(n, c.rate, c.burst, rand.New(rand.NewPCG(42, 7)))
		if !slices.IsSorted(arr) {
			t.Fatalf("rate %g burst %g: arrivals not sorted", c.rate, c.burst)
		}
		wantLast := time.Duration(float64(n) / c.rate * float64(time.Second))
		if d := arr[n-1] - wantLast; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("rate %g: last arrival %v, want %v (vLLM rescales to n/rate)", c.rate, arr[n-1], wantLast)
		}
		gaps := make([]float64, n)
		prev := time.Duration(0)
		for i, a := range arr {
			gaps[i] = (a - prev).Seconds()
			prev = a
		}
		m, s := mean(gaps), std(gaps)
		if math.Abs(m-1/c.rate) > 1e-6 {
			t.Errorf("rate %g: mean gap %g, want %g", c.rate, m, 1/c.rate)
		}
		if cv, want := s/m, 1/math.Sqrt(c.burst); math.Abs(cv-want) > 0.06*want {
			t.Errorf("rate %g burst %g: gap CV %.3f, want %.3f", c.rate, c.burst, cv, want)
		}
	}
}

func TestArrivalsSeeded(t *testing.T) {
	a := Arrivals(100, 5, 0.5, rand.New(rand.NewPCG(3, 4)))
	b := Arrivals(100, 5, 0.5, rand.New(rand.NewPCG(3, 4)))
	c := Arrivals(100, 5, 0.5, rand.New(rand.NewPCG(9, 4)))
	if !slices.Equal(a, b) {
		t.Fatal("same seed gave different arrivals")
	}
	if slices.Equal(a, c) {
		t.Fatal("different seeds gave the same arrivals")
	}
}

func TestGammaMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []float64{0.3, 1, 2.5, 9} {
		var s float64
		const n = 50000
		for range n {
			s += gamma(rng, k, 2)
		}
		if m := s / n; math.Abs(m-2*k) > 0.03*2*k {
			t.Errorf("gamma(%g, 2) mean %g, want %g", k, m, 2*k)
		}
	}
}
