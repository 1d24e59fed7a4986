package benchmark

import (
	"strings"
	"testing"
	"time"
)

func TestParseGoodput(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{in: "ttft:500 tpot:50", want: "ttft:500 tpot:50"},
		{in: "e2el:2000,TTFT:0.5", want: "ttft:0.5 e2el:2000"},
		{in: "", err: "empty"},
		{in: "itl:5", err: "KEY one of ttft, tpot, e2el"},
		{in: "ttft", err: "KEY one of"},
		{in: "ttft:-1", err: "milliseconds >= 0"},
		{in: "ttft:NaN", err: "milliseconds >= 0"},
		{in: "ttft:fast", err: "milliseconds >= 0"},
	} {
		g, err := ParseGoodput(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || g.String() != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, g.String(), err, c.want)
		}
	}
}

func FuzzParseGoodput(f *testing.F) {
	for _, s := range []string{"ttft:500 tpot:50", "e2el:1,ttft:2", ":", "ttft:1e309", "tpot: 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGoodput(s)
		if err != nil {
			return
		}
		// What parses spells back to objectives that parse the same.
		again, err := ParseGoodput(g.String())
		if err != nil || again.String() != g.String() {
			t.Fatalf("%q → %q → %q, %v", s, g.String(), again.String(), err)
		}
	})
}

// Goodput counts completed requests within every objective, per second of
// the run; failed requests never count, and TPOT is 0 for one token.
func TestGoodputCountsRequestsWithinObjectives(t *testing.T) {
	outs := []Output{
		{Success: true, OutputTokens: 11, TTFT: 100 * ms, Latency: 600 * ms},  // tpot 50
		{Success: true, OutputTokens: 11, TTFT: 300 * ms, Latency: 800 * ms},  // ttft over 200
		{Success: true, OutputTokens: 11, TTFT: 100 * ms, Latency: 1100 * ms}, // tpot 100
		{Success: true, OutputTokens: 1, TTFT: 150 * ms, Latency: 150 * ms},   // tpot 0
		{Success: false, Error: "x"},
	}
	for _, c := range []struct {
		slo  string
		want float64
	}{
		{"ttft:200", 3.0 / 2},
		{"ttft:200 tpot:60", 2.0 / 2},
		{"e2el:700", 2.0 / 2},
		{"ttft:1000 tpot:1000 e2el:5000", 4.0 / 2},
	} {
		g, err := ParseGoodput(c.slo)
		if err != nil {
			t.Fatal(err)
		}
		r := ComputeGoodput(outs, 2*time.Second, nil, g)
		if r.RequestGoodput != c.want {
			t.Errorf("%s: goodput %v, want %v", c.slo, r.RequestGoodput, c.want)
		}
	}
	r := Compute(outs, 2*time.Second, nil)
	raw, _ := r.MarshalJSON()
	if !strings.Contains(string(raw), `"request_goodput": null`) {
		t.Errorf("without objectives request_goodput must be null: %s", raw)
	}
}
