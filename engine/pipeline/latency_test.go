package pipeline

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

func TestLatencySample(t *testing.T) {
	cases := []struct {
		name     string
		l        Latency
		min, max time.Duration
	}{
		{"fixed", Latency{Base: 30 * ms}, 30 * ms, 30 * ms},
		{"jitter", Latency{Base: 100 * ms, Jitter: 20 * ms}, 80 * ms, 120 * ms},
		{"never negative", Latency{Base: 5 * ms, Jitter: 50 * ms}, 0, 55 * ms},
		{"always spikes", Latency{Base: 10 * ms, SpikeRate: 1, Spike: time.Second}, 1010 * ms, 1010 * ms},
	}
	for _, tc := range cases {
		seen := map[time.Duration]bool{}
		for seed := range int64(200) {
			d := tc.l.sample(stageRNG(seed, StageRetrieval))
			if d < tc.min || d > tc.max {
				t.Fatalf("%s: seed %d drew %v outside [%v, %v]", tc.name, seed, d, tc.min, tc.max)
			}
			if again := tc.l.sample(stageRNG(seed, StageRetrieval)); again != d {
				t.Fatalf("%s: seed %d drew %v then %v", tc.name, seed, d, again)
			}
			seen[d] = true
		}
		if tc.l.Jitter > 0 && len(seen) < 50 {
			t.Errorf("%s: only %d distinct waits in 200 seeds", tc.name, len(seen))
		}
	}
	// A tail: about 5% of draws spike.
	l := Latency{Base: 100 * ms, SpikeRate: 0.05, Spike: 2 * time.Second}
	spikes := 0
	for seed := range int64(2000) {
		if l.sample(stageRNG(seed, StageOrder)) > time.Second {
			spikes++
		}
	}
	if spikes < 60 || spikes > 140 {
		t.Errorf("%d spikes in 2000 draws at rate 0.05", spikes)
	}
	// Stages draw independently from one seed.
	a := Latency{Base: 100 * ms, Jitter: 50 * ms}
	if a.sample(stageRNG(1, StageHistory)) == a.sample(stageRNG(1, StageOrder)) &&
		a.sample(stageRNG(2, StageHistory)) == a.sample(stageRNG(2, StageOrder)) {
		t.Error("stages share one random stream")
	}
}

// The same seed replays the same timeline; another seed moves it.
func TestSameSeedSameTimeline(t *testing.T) {
	timeline := func(seed int64) []Span {
		var spans []Span
		synctest.Test(t, func(t *testing.T) {
			st := newMemStore()
			cfg := DefaultConfig()
			cfg.Gateway.Fallback = nil
			cfg.Guard.Latency.Jitter = 30 * ms
			cfg.Context.RetrievalLatency = Latency{Base: 120 * ms, Jitter: 60 * ms, SpikeRate: 0.2, Spike: 400 * ms}
			cfg.Context.OrderLatency.Jitter = 20 * ms
			prov := &scriptProvider{clk: clock.Wall{}, ttft: 600 * ms, gap: 10 * ms, words: 10}
			p, err := New(cfg, Deps{Tiers: tiers(prov, nil), Retriever: st, Orders: st})
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Run(t.Context(), Request{Question: "Where is my order?", Seed: seed}, nil)
			if err != nil {
				t.Fatal(err)
			}
			spans = res.Spans
		})
		return spans
	}
	a, b, c := timeline(3), timeline(3), timeline(4)
	if !slices.Equal(a, b) {
		t.Errorf("seed 3 twice:\n%v\n%v", a, b)
	}
	if slices.Equal(a, c) {
		t.Error("seeds 3 and 4 gave the same timeline")
	}
}
