package benchmark

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Goodput is vLLM's --goodput: service-level objectives in milliseconds,
// keyed by request metric ("ttft", "tpot", "e2el"). A completed request is
// good when every metric named is at or under its objective; request goodput
// is good requests per second of the run. An empty Goodput reports none.
type Goodput map[string]float64

// goodputKeys are the request-level metrics vLLM accepts, in its order.
var goodputKeys = []string{"ttft", "tpot", "e2el"}

// ParseGoodput reads objectives such as "ttft:500 tpot:50" (spaces or
// commas between pairs, as vLLM's space-separated KEY:VALUE arguments).
func ParseGoodput(s string) (Goodput, error) {
	g := Goodput{}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("goodput %q is empty: want KEY:MS pairs such as ttft:500 tpot:50", s)
	}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, ":")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || !slices.Contains(goodputKeys, k) {
			return nil, fmt.Errorf("goodput %q is not valid: want KEY:MS with KEY one of ttft, tpot, e2el", f)
		}
		ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(ms) || math.IsInf(ms, 0) || ms < 0 {
			return nil, fmt.Errorf("goodput %q is not valid: the objective must be a number of milliseconds >= 0", f)
		}
		g[k] = ms
	}
	return g, nil
}

// String spells the objectives back as KEY:MS pairs in vLLM's key order.
func (g Goodput) String() string {
	var parts []string
	for _, k := range goodputKeys {
		if v, ok := g[k]; ok {
			parts = append(parts, k+":"+strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	return strings.Join(parts, " ")
}

// good reports whether a successful output meets every objective. TPOT is 0
// for a one-token answer, as vLLM counts it for goodput.
func (g Goodput) good(o *Output) bool {
	tpot := 0.0
	if o.OutputTokens > 1 {
		tpot = (o.Latency - o.TTFT).Seconds() / float64(o.OutputTokens-1)
	}
	got := map[string]float64{"ttft": o.TTFT.Seconds() * 1000, "tpot": tpot * 1000, "e2el": o.Latency.Seconds() * 1000}
	for k, slo := range g {
		if got[k] > slo {
			return false
		}
	}
	return true
}
