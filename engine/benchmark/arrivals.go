package benchmark

import (
	"math"
	"math/rand/v2"
	"time"
)

// Arrivals returns when each of n requests is sent, from the benchmark
// start, as vLLM's get_request schedules them: at rate +Inf all at zero;
// otherwise gaps drawn from a gamma distribution with shape = burstiness and
// scale = 1/(rate·burstiness) (burstiness 1 is a Poisson process), summed,
// then rescaled so the last arrival lands exactly at n/rate — vLLM's fix that
// keeps throughput comparable across seeds.
func Arrivals(n int, rate, burstiness float64, rng *rand.Rand) []time.Duration {
	out := make([]time.Duration, n)
	if n == 0 || math.IsInf(rate, 1) {
		return out
	}
	delays := make([]float64, n)
	var t float64
	for i := range delays {
		t += gap(rng, rate, burstiness)
		delays[i] = t
	}
	scale := 1.0
	if t > 0 {
		scale = float64(n) / rate / t
	}
	for i, d := range delays {
		out[i] = time.Duration(d * scale * float64(time.Second))
	}
	return out
}

// gap draws one unscaled gap between arrivals.
func gap(rng *rand.Rand, rate, burstiness float64) float64 {
	if math.IsInf(burstiness, 1) {
		return 1 / rate
	}
	return gamma(rng, burstiness, 1/(rate*burstiness))
}

// gamma draws from Gamma(shape, scale) with Marsaglia and Tsang's method;
// shapes below 1 use the boost x·U^(1/shape).
func gamma(rng *rand.Rand, shape, scale float64) float64 {
	if shape < 1 {
		u := rng.Float64()
		for u == 0 {
			u = rng.Float64()
		}
		return gamma(rng, shape+1, scale) * math.Pow(u, 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x {
			return d * v * scale
		}
		if u > 0 && math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * scale
		}
	}
}
