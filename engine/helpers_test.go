package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// randomPrompt returns n token ids drawn from a seeded generator, so
// distinct prompts share no prefix blocks.
func randomPrompt(r *rand.Rand, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = r.IntN(128000)
	}
	return p
}

// fixedRequests builds n requests of in/out tokens, all arriving at t=0.
func fixedRequests(seed uint64, n, in, out int) []Request {
	r := rand.New(rand.NewPCG(seed, 1))
	reqs := make([]Request, n)
	for i := range reqs {
		reqs[i] = Request{ID: fmt.Sprintf("r%d", i), PromptTokens: randomPrompt(r, in), MaxTokens: out, IgnoreEOS: true}
	}
	return reqs
}

// metrics summarises a run the way vllm bench serve does.
type metrics struct {
	medianTTFT, p99TTFT, medianTPOT, meanE2E, medianITL, p99ITL time.Duration
	duration                                                    time.Duration
	outputThroughput                                            float64 // tokens/s
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	// numpy's linear interpolation, as vllm bench serve uses.
	pos := p / 100 * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	frac := pos - float64(lo)
	return s[lo] + time.Duration(frac*float64(s[lo+1]-s[lo]))
}

func summarize(res *SimResult) metrics {
	var ttft, tpot, e2e, itl []time.Duration
	tokens := 0
	for i := range res.Requests {
		r := &res.Requests[i]
		n := len(r.TokenTimes)
		tokens += n
		if n == 0 {
			continue
		}
		ttft = append(ttft, r.TTFT())
		e2e = append(e2e, r.E2E())
		if n > 1 {
			tpot = append(tpot, (r.E2E()-r.TTFT())/time.Duration(n-1))
			for j := 1; j < n; j++ {
				itl = append(itl, r.TokenTimes[j]-r.TokenTimes[j-1])
			}
		}
	}
	var sum time.Duration
	for _, d := range e2e {
		sum += d
	}
	m := metrics{
		medianTTFT: percentile(ttft, 50), p99TTFT: percentile(ttft, 99),
		medianTPOT: percentile(tpot, 50),
		medianITL:  percentile(itl, 50), p99ITL: percentile(itl, 99),
		duration: res.Duration,
	}
	if len(e2e) > 0 {
		m.meanE2E = sum / time.Duration(len(e2e))
	}
	if res.Duration > 0 {
		m.outputThroughput = float64(tokens) / res.Duration.Seconds()
	}
	return m
}

// mustModel looks up a built-in model profile, failing the test if the
// name is unknown (a zero Model would make every figure after it wrong).
func mustModel(t testing.TB, name string) Model {
	t.Helper()
	m, err := LookupModel(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// mustHardware looks up a built-in hardware profile, failing the test if
// the name is unknown.
func mustHardware(t testing.TB, name string) Hardware {
	t.Helper()
	h, err := LookupHardware(name)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
