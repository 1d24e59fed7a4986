package pipeline

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// TenantLoad is other people's traffic on a hosted provider's engine: chat
// requests arriving at random (Poisson) at Rate per second, with prompt and
// answer lengths drawn from a plausible chat mix. On a shared engine those
// requests queue and batch with yours, so every decode step carries their
// sequences too and takes longer: that, not a slower GPU, is most of why a
// hosted tier writes at ~80 tokens/s where the same GPU alone writes ~128.
type TenantLoad struct {
	// Rate is other tenants' requests per second (0: the engine is yours).
	Rate float64
	// Seed fixes the arrival times and sizes, so a run can be repeated.
	Seed uint64
	// MaxInFlight caps the background requests running at once on a live
	// engine; an arrival over the cap is dropped (default 96).
	MaxInFlight int
	// WarmUp is how long the load runs before the learner's request is
	// sent, so it meets a steady batch rather than an empty engine
	// (default 4 s: about one chat's lifetime, so the batch is steady).
	WarmUp time.Duration
}

// The chat mix: log-normal lengths around these medians, clamped.
const (
	tenantPromptMedian = 700
	tenantPromptSigma  = 0.8
	tenantAnswerMedian = 250
	tenantAnswerSigma  = 0.7
	maxTenantRate      = 50
)

// DefaultMaxInFlight bounds a live background load.
const DefaultMaxInFlight = 96

// DefaultWarmUp is how long a background load runs before it is measured.
const DefaultWarmUp = 4 * time.Second

// Validate reports a rate outside 0..50 per second or a negative setting.
func (t TenantLoad) Validate() error {
	if math.IsNaN(t.Rate) || t.Rate < 0 || t.Rate > maxTenantRate {
		return fmt.Errorf("other tenants' load %v requests/s is outside 0..%d", t.Rate, maxTenantRate)
	}
	if t.MaxInFlight < 0 || t.WarmUp < 0 {
		return errors.New("tenant cap and warm-up must not be negative")
	}
	return nil
}

// On says whether there is any load.
func (t TenantLoad) On() bool { return t.Rate > 0 }

func (t TenantLoad) cap() int {
	if t.MaxInFlight <= 0 {
		return DefaultMaxInFlight
	}
	return t.MaxInFlight
}

func (t TenantLoad) warmUp() time.Duration {
	if t.WarmUp <= 0 {
		return DefaultWarmUp
	}
	return t.WarmUp
}

// tenantGen draws the load's requests one after another.
type tenantGen struct {
	load TenantLoad
	rng  *rand.Rand
	at   float64 // seconds since the load started
	n    int
}

func newTenantGen(load TenantLoad) *tenantGen {
	return &tenantGen{load: load, rng: rand.New(rand.NewPCG(load.Seed, 0x7e4a47))}
}

// next is the following request, its Arrival the time since the load
// started. Token ids are random so tenants share no cached prefix.
func (g *tenantGen) next() engine.Request {
	g.at += g.rng.ExpFloat64() / g.load.Rate
	g.n++
	prompt := logNormal(g.rng, tenantPromptMedian, tenantPromptSigma, 50, 6000)
	answer := logNormal(g.rng, tenantAnswerMedian, tenantAnswerSigma, 10, 1500)
	return engine.Request{
		ID:           fmt.Sprintf("tenant-%x-%d", g.load.Seed, g.n),
		Arrival:      time.Duration(g.at * float64(time.Second)),
		PromptTokens: randomTokens(g.rng, prompt),
		OutputTokens: randomTokens(g.rng, answer),
		MaxTokens:    answer,
	}
}

// Requests is the load's arrivals in [0, until), for a run on the virtual
// clock: add them to the workload beside the learner's own requests.
func (t TenantLoad) Requests(until time.Duration) []engine.Request {
	if !t.On() {
		return nil
	}
	g := newTenantGen(t)
	var out []engine.Request
	for {
		r := g.next()
		if r.Arrival >= until {
			return out
		}
		out = append(out, r)
	}
}

func logNormal(rng *rand.Rand, median, sigma float64, lo, hi int) int {
	return min(max(int(median*math.Exp(sigma*rng.NormFloat64())), lo), hi)
}

// randomTokens are n token ids from the ordinary vocabulary range.
func randomTokens(rng *rand.Rand, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1000 + rng.IntN(100000)
	}
	return out
}
