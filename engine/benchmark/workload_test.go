package benchmark

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// wordTok is a deterministic stand-in tokenizer: one token per word.
type wordTok struct {
	ids   map[string]int
	words []string
}

func newWordTok() *wordTok { return &wordTok{ids: map[string]int{}} }

func (w *wordTok) Encode(s string) []int {
	var out []int
	for _, f := range strings.Fields(s) {
		id, ok := w.ids[f]
		if !ok {
			id = len(w.words)
			w.ids[f] = id
			w.words = append(w.words, f)
		}
		out = append(out, id)
	}
	return out
}

func (w *wordTok) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(" " + w.words[id])
	}
	return b.String()
}

const testCorpus = `The prefill phase reads the whole prompt at once and is bound by compute.
The decode phase produces one token per step and is bound by memory bandwidth, because every step
reads all the weights again. Batching many sequences shares that read, which is why continuous
batching raises throughput while each user's time per output token grows only a little.`

func TestSampleLengthsAndPrefix(t *testing.T) {
	w := DefaultWorkload()
	w.NumRequests, w.InputLen, w.OutputLen, w.RangeRatio, w.SharedPrefixLen = 200, 100, 20, 0.5, 16
	reqs, err := Sample(w, newWordTok(), testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Fields(reqs[0].Prompt)[:16]
	for _, r := range reqs {
		words := strings.Fields(r.Prompt)
		if r.PromptLen != len(words) || r.PromptLen != len(r.PromptTokens) {
			t.Fatalf("%s: PromptLen %d, prompt has %d tokens", r.ID, r.PromptLen, len(words))
		}
		// prefix 16 + input uniform in [50, 150]
		if r.PromptLen < 16+50 || r.PromptLen > 16+150 {
			t.Fatalf("%s: prompt %d tokens outside [66, 166]", r.ID, r.PromptLen)
		}
		if r.OutputLen < 10 || r.OutputLen > 30 {
			t.Fatalf("%s: output %d outside [10, 30]", r.ID, r.OutputLen)
		}
		if strings.Join(words[:16], " ") != strings.Join(first, " ") {
			t.Fatalf("%s: prompt does not start with the shared prefix", r.ID)
		}
		if r.Arrival != 0 {
			t.Fatalf("rate inf: arrival %v", r.Arrival)
		}
	}
	again, err := Sample(w, newWordTok(), testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for i := range reqs {
		if reqs[i].Prompt != again[i].Prompt || reqs[i].OutputLen != again[i].OutputLen || reqs[i].Arrival != again[i].Arrival {
			t.Fatal("same seed gave a different dataset")
		}
	}
}

func TestWorkloadValidate(t *testing.T) {
	bad := []func(*Workload){
		func(w *Workload) { w.InputLen = 0 },
		func(w *Workload) { w.OutputLen = -3 },
		func(w *Workload) { w.RangeRatio = 1 },
		func(w *Workload) { w.NumRequests = 0 },
		func(w *Workload) { w.RequestRate = 0 },
		func(w *Workload) { w.RequestRate = math.NaN() },
		func(w *Workload) { w.Burstiness = 0 },
		func(w *Workload) { w.MaxConcurrency = -1 },
		func(w *Workload) { w.SharedPrefixLen = -1 },
		func(w *Workload) { w.Percentiles = []float64{101} },
		func(w *Workload) { w.InputLen = 1 << 30 },
		func(w *Workload) { w.NumRequests = maxRequests + 1 },
	}
	for i, f := range bad {
		w := DefaultWorkload()
		f(&w)
		if err := w.Validate(); err == nil {
			t.Errorf("case %d: invalid workload %+v accepted", i, w)
		} else if !strings.Contains(err.Error(), "want") {
			t.Errorf("case %d: error %q does not say what is valid", i, err)
		}
	}
	if err := DefaultWorkload().Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
}

func TestParseRateAndPercentiles(t *testing.T) {
	if r, err := ParseRate("inf"); err != nil || !math.IsInf(r, 1) {
		t.Errorf("ParseRate(inf) = %g, %v", r, err)
	}
	if r, err := ParseRate("2.5"); err != nil || r != 2.5 {
		t.Errorf("ParseRate(2.5) = %g, %v", r, err)
	}
	for _, s := range []string{"0", "-1", "fast", "NaN"} {
		if _, err := ParseRate(s); err == nil {
			t.Errorf("ParseRate(%q) accepted", s)
		}
	}
	if ps, err := ParsePercentiles("50, 90,99.9"); err != nil || len(ps) != 3 || ps[2] != 99.9 {
		t.Errorf("ParsePercentiles = %v, %v", ps, err)
	}
	for _, s := range []string{"", "50,x", "150"} {
		if _, err := ParsePercentiles(s); err == nil {
			t.Errorf("ParsePercentiles(%q) accepted", s)
		}
	}
}

// The dataset replays the arrival gaps lazily; they must be exactly the
// times Arrivals computes from the same generator, for every traffic shape.
func TestDatasetArrivalsMatchArrivals(t *testing.T) {
	cases := []struct {
		rate, burstiness float64
	}{
		{math.Inf(1), 1}, {10, 1}, {3.5, 0.3}, {1000, 4},
	}
	for _, c := range cases {
		w := DefaultWorkload()
		w.NumRequests, w.InputLen, w.OutputLen, w.Seed = 500, 8, 4, 7
		w.RequestRate, w.Burstiness = c.rate, c.burstiness
		d, err := NewDataset(w, newWordTok(), testCorpus)
		if err != nil {
			t.Fatal(err)
		}
		want := Arrivals(w.NumRequests, c.rate, c.burstiness, rand.New(rand.NewPCG(w.Seed, 0x6c6174656e6379)))
		for i := range d.Len() {
			if got := d.NextTokens().Arrival; got != want[i] {
				t.Fatalf("rate %g burstiness %g: request %d arrives at %v, Arrivals says %v", c.rate, c.burstiness, i, got, want[i])
			}
		}
	}
}

// NextTokens is Next without the text: the same ids, lengths and arrivals.
func TestDatasetNextTokensMatchesNext(t *testing.T) {
	w := DefaultWorkload()
	w.NumRequests, w.InputLen, w.OutputLen, w.RangeRatio, w.SharedPrefixLen, w.RequestRate = 50, 20, 10, 0.5, 4, 30
	a, err := NewDataset(w, newWordTok(), testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewDataset(w, newWordTok(), testCorpus)
	for range w.NumRequests {
		x, y := a.Next(), b.NextTokens()
		if x.Prompt == "" || y.Prompt != "" || !slices.Equal(x.PromptTokens, y.PromptTokens) ||
			x.Arrival != y.Arrival || x.OutputLen != y.OutputLen || x.ID != y.ID {
			t.Fatalf("Next %+v and NextTokens %+v differ", x, y)
		}
	}
}
