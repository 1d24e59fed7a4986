package benchmark

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
)

// Dataset draws a workload's requests one at a time, in arrival order, from
// its seed: Next returns the same requests, in the same order, as Sample,
// while holding only the tokenized corpus, so a million-request run needs no
// more memory than a small one.
//
// Prompts are windows of real text tokens (the corpus, tokenized once) at
// random offsets, so they read as text and their lengths are exact token
// counts; a shared prefix, when asked for, is the same window at the head of
// every prompt. As with vLLM's random dataset, a server that re-tokenizes the
// decoded text may count a token more or less where windows join.
type Dataset struct {
	w            Workload
	tok          Tokenizer
	corpus       []int
	prefix       []int
	rng          *rand.Rand // lengths and offsets, after the arrival gaps
	gaps         *rand.Rand // replays the arrival gaps from their start
	scale        float64    // vLLM's rescaling of the summed gaps
	t            float64    // arrival of the last request drawn, unscaled
	inLo, inHi   int
	outLo, outHi int
	next         int
}

// NewDataset validates the workload and tokenizes the corpus.
func NewDataset(w Workload, tok Tokenizer, corpus string) (*Dataset, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	ids := tok.Encode(corpus)
	if len(ids) < 16 {
		return nil, fmt.Errorf("sample prompts: corpus has %d tokens, want at least 16", len(ids))
	}
	pcg := rand.NewPCG(w.Seed, 0x6c6174656e6379)
	d := &Dataset{w: w, tok: tok, corpus: ids, rng: rand.New(pcg), scale: 1}
	d.inLo, d.inHi = lenRange(w.InputLen, w.RangeRatio)
	d.outLo, d.outHi = lenRange(w.OutputLen, w.RangeRatio)
	d.outLo, d.outHi = max(d.outLo, 1), max(d.outHi, 1)
	if w.SharedPrefixLen > 0 {
		d.prefix = d.window(nil, w.SharedPrefixLen)
	}
	// The random stream draws every arrival gap before any length, as
	// Arrivals does; sum the gaps once for the rescaling and keep a copy of
	// the generator to replay them lazily.
	replay := *pcg
	d.gaps = rand.New(&replay)
	if !math.IsInf(w.RequestRate, 1) {
		var total float64
		for range w.NumRequests {
			total += gap(d.rng, w.RequestRate, w.Burstiness)
		}
		if total > 0 {
			d.scale = float64(w.NumRequests) / w.RequestRate / total
		}
	}
	return d, nil
}

// Len is the number of requests the dataset holds.
func (d *Dataset) Len() int { return d.w.NumRequests }

// Next draws the next request with its prompt text, for a real server.
func (d *Dataset) Next() Request {
	r := d.NextTokens()
	r.Prompt = d.tok.Decode(r.PromptTokens)
	return r
}

// NextTokens draws the next request without decoding its prompt to text,
// which the virtual clock does not need. It panics past Len, a caller bug.
func (d *Dataset) NextTokens() Request { return d.draw(nil) }

// draw is NextTokens writing the prompt ids into buf's memory when it is
// large enough, for a caller done with the previous request's ids.
func (d *Dataset) draw(buf []int) Request {
	if d.next >= d.w.NumRequests {
		panic("benchmark: Dataset.Next called more than Len times")
	}
	arrival := time.Duration(0)
	if !math.IsInf(d.w.RequestRate, 1) {
		d.t += gap(d.gaps, d.w.RequestRate, d.w.Burstiness)
		arrival = time.Duration(d.t * d.scale * float64(time.Second))
	}
	in := d.inLo + d.rng.IntN(d.inHi-d.inLo+1)
	out := d.outLo + d.rng.IntN(d.outHi-d.outLo+1)
	ids := append(buf[:0], d.prefix...)
	ids = d.window(ids, in)
	r := Request{
		ID:           "bench-" + strconv.Itoa(d.next),
		PromptLen:    len(ids),
		PromptTokens: ids,
		OutputLen:    out,
		Arrival:      arrival,
	}
	d.next++
	return r
}

// window appends n corpus tokens from a random offset, wrapping around.
func (d *Dataset) window(dst []int, n int) []int {
	off := d.rng.IntN(len(d.corpus))
	dst = slices.Grow(dst, n)
	for n > 0 {
		k := min(n, len(d.corpus)-off)
		dst = append(dst, d.corpus[off:off+k]...)
		n -= k
		off = 0
	}
	return dst
}
