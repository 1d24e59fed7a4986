package engine

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// poissonRequests is fixedRequests with Poisson arrivals at rate per second
// (all at zero when rate is 0), in arrival order.
func poissonRequests(seed uint64, n, in, out int, rate float64) []Request {
	reqs := fixedRequests(seed, n, in, out)
	if rate == 0 {
		return reqs
	}
	r := rand.New(rand.NewPCG(seed, 2))
	var t float64
	for i := range reqs {
		t += r.ExpFloat64() / rate
		reqs[i].Arrival = time.Duration(t * float64(time.Second))
	}
	return reqs
}

// streamAll runs reqs through SimulateStream, gathering the results by k.
func streamAll(t *testing.T, cfg Config, reqs []Request, opt SimOptions) ([]RequestResult, StreamResult) {
	t.Helper()
	got := make([]RequestResult, len(reqs))
	res, err := SimulateStream(cfg, len(reqs), func(k int) (Request, error) { return reqs[k], nil }, opt,
		func(k int, r *RequestResult) error {
			got[k] = *r
			got[k].TokenTimes = append([]time.Duration(nil), r.TokenTimes...)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return got, res
}

// A streamed run must make every scheduling decision Simulate makes, so
// every request's timing, usage and token times are the same, even when
// the waiting window holds most arrived requests back.
func TestSimulateStreamMatchesSimulate(t *testing.T) {
	cases := []struct {
		name        string
		policy      Policy
		n, in, out  int
		rate        float64
		concurrency int
		prefixCache bool
		maxNumSeqs  int
	}{
		{name: "continuous burst beyond the window", policy: Continuous, n: 300, in: 256, out: 16, maxNumSeqs: 8},
		{name: "continuous burst, prefix cache", policy: Continuous, n: 200, in: 512, out: 8, prefixCache: true, maxNumSeqs: 16},
		{name: "continuous poisson", policy: Continuous, n: 200, in: 128, out: 32, rate: 40},
		{name: "continuous capped", policy: Continuous, n: 150, in: 128, out: 16, concurrency: 5, maxNumSeqs: 4},
		{name: "static burst", policy: Static, n: 120, in: 64, out: 16},
		{name: "static poisson", policy: Static, n: 100, in: 64, out: 16, rate: 30},
		{name: "sequential poisson capped", policy: Sequential, n: 60, in: 64, out: 8, rate: 50, concurrency: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Policy, cfg.PrefixCaching = c.policy, c.prefixCache
			if c.maxNumSeqs > 0 {
				cfg.MaxNumSeqs = c.maxNumSeqs
			}
			if c.policy == Static {
				cfg.BatchSize = 8
			}
			opt := SimOptions{MaxConcurrency: c.concurrency}
			want, err := Simulate(cfg, poissonRequests(3, c.n, c.in, c.out, c.rate), opt)
			if err != nil {
				t.Fatal(err)
			}
			got, res := streamAll(t, cfg, poissonRequests(3, c.n, c.in, c.out, c.rate), opt)
			for i := range got {
				if !reflect.DeepEqual(got[i], want.Requests[i]) {
					t.Fatalf("request %d: streamed %+v, Simulate %+v", i, got[i], want.Requests[i])
				}
			}
			if res.Duration != want.Duration || !reflect.DeepEqual(res.Stats, want.Stats) {
				t.Fatalf("streamed %v %+v, Simulate %v %+v", res.Duration, res.Stats, want.Duration, want.Stats)
			}
		})
	}
}

// Bad input to a streamed run is an error that says what is wrong, never a
// panic or a hang.
func TestSimulateStreamRejects(t *testing.T) {
	reqs := poissonRequests(1, 4, 32, 4, 10)
	ok := func(k int, _ *RequestResult) error { return nil }
	from := func(rs []Request) func(int) (Request, error) {
		return func(k int) (Request, error) { return rs[k], nil }
	}
	backwards := append([]Request(nil), reqs...)
	backwards[2].Arrival = 0
	tooLong := append([]Request(nil), reqs...)
	tooLong[1].PromptTokens = make([]int, 1<<20)
	errSource := errors.New("source broke")
	cases := []struct {
		name     string
		count    int
		request  func(int) (Request, error)
		opt      SimOptions
		finished func(int, *RequestResult) error
		want     string
	}{
		{"arrivals out of order", 4, from(backwards), SimOptions{}, ok, "want arrival order"},
		{"request over the context", 4, from(tooLong), SimOptions{}, ok, "maximum context length"},
		{"trace asked for", 4, from(reqs), SimOptions{RecordTrace: true}, ok, "keeps no trace"},
		{"negative cap", 4, from(reqs), SimOptions{MaxConcurrency: -1}, ok, "must not be negative"},
		{"negative count", -1, from(reqs), SimOptions{}, ok, "must not be negative"},
		{"source error", 4, func(int) (Request, error) { return Request{}, errSource }, SimOptions{}, ok, "source broke"},
		{"sink error", 4, from(reqs), SimOptions{}, func(int, *RequestResult) error { return errSource }, "source broke"},
	}
	for _, c := range cases {
		_, err := SimulateStream(DefaultConfig(), c.count, c.request, c.opt, c.finished)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// No requests is an empty run, not an error.
func TestSimulateStreamEmpty(t *testing.T) {
	res, err := SimulateStream(DefaultConfig(), 0, nil, SimOptions{}, nil)
	if err != nil || res.Duration != 0 {
		t.Fatalf("empty run: %+v, %v", res, err)
	}
}
