package pipeline

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Latency is the simulated response time of a service the pipeline calls
// (a guardrail API, a history store, a search service, an order system).
// Each call waits Base, moved by up to ±Jitter, plus Spike on a fraction
// SpikeRate of calls so runs of many requests show a tail.
type Latency struct {
	Base      time.Duration
	Jitter    time.Duration
	SpikeRate float64 // 0..1
	Spike     time.Duration
}

// Validate reports a negative duration or a rate outside 0..1.
func (l Latency) Validate() error {
	switch {
	case l.Base < 0 || l.Jitter < 0 || l.Spike < 0:
		return fmt.Errorf("latency durations must not be negative (base %v, jitter %v, spike %v)", l.Base, l.Jitter, l.Spike)
	case l.SpikeRate < 0 || l.SpikeRate > 1:
		return fmt.Errorf("latency spike rate %v is outside 0..1", l.SpikeRate)
	}
	return nil
}

// sample draws one wait. The draw order is fixed so a seed always gives the
// same wait.
func (l Latency) sample(rng *rand.Rand) time.Duration {
	d := l.Base
	if l.Jitter > 0 {
		d += time.Duration(rng.Int64N(int64(2*l.Jitter)+1)) - l.Jitter
	}
	if l.SpikeRate > 0 && rng.Float64() < l.SpikeRate {
		d += l.Spike
	}
	return max(d, 0)
}

// stageRNG gives each stage its own stream from the request seed, so a
// stage's draw does not depend on which goroutine ran first.
func stageRNG(seed int64, stage string) *rand.Rand {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(stage); i++ {
		h ^= uint64(stage[i])
		h *= 1099511628211
	}
	return rand.New(rand.NewPCG(uint64(seed), h))
}
