package engine

import (
	"testing"
	"time"
)

func decodeShape(seqs, context int) BatchShape {
	return BatchShape{NumSeqs: seqs, DecodeTokens: seqs, SampledTokens: seqs, KVReadTokens: int64(seqs * context),
		AttnPairs: float64(seqs) * float64(context+1)}
}

func stepTime(t *testing.T, mutate func(*Config), b BatchShape) time.Duration {
	t.Helper()
	cfg := DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	r, err := NewRoofline(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r.StepTime(b)
}

func TestRooflineShape(t *testing.T) {
	none := func(*Config) {}
	fp8 := func(c *Config) { c.Precision = FP8 }
	m70 := func(tp int) func(*Config) {
		return func(c *Config) { c.Model = mustModel(t, "llama-3.1-70b"); c.TP = tp }
	}
	prefill := BatchShape{NumSeqs: 1, PrefillTokens: 4096, SampledTokens: 1, AttnPairs: 4096 * 4097 / 2}
	tests := []struct {
		name        string
		faster      func(*Config)
		fasterShape BatchShape
		slower      func(*Config)
		slowerShape BatchShape
	}{
		{"short context decodes faster", none, decodeShape(32, 100), none, decodeShape(32, 8000)},
		{"fp8 decodes faster", fp8, decodeShape(1, 500), none, decodeShape(1, 500)},
		{"fp8 prefills faster on h100", fp8, prefill, none, prefill},
		{"tp4 decodes 70b faster than tp2", m70(4), decodeShape(8, 500), m70(2), decodeShape(8, 500)},
	}
	for _, tt := range tests {
		f, s := stepTime(t, tt.faster, tt.fasterShape), stepTime(t, tt.slower, tt.slowerShape)
		if f >= s {
			t.Errorf("%s: %v is not below %v", tt.name, f, s)
		}
	}
	// Batching pays: one step of 64 decodes beats eight steps of 8.
	if one, eight := stepTime(t, none, decodeShape(64, 500)), 8*stepTime(t, none, decodeShape(8, 500)); one >= eight {
		t.Errorf("a batch of 64 takes %v, eight batches of 8 take %v", one, eight)
	}
	if d := stepTime(t, none, BatchShape{}); d != 0 {
		t.Errorf("empty batch costs %v", d)
	}
	// Batch-1 decode is memory-bound: close to weights ÷ effective bandwidth.
	d := stepTime(t, none, decodeShape(1, 1))
	sec := 16.06e9 / (3350e9 * memEfficiency)
	floor := time.Duration(sec * float64(time.Second))
	if d < floor || d > floor+3*time.Millisecond {
		t.Errorf("batch-1 decode %v, want just above %v", d, floor)
	}
}
