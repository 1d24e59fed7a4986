package benchmark

import (
	"math"
	"time"
)

// Collector folds per-request outputs into a Result as requests finish, in
// any order, in memory that does not grow with their number: each metric is
// a distribution (exact while small, a quantile sketch past exactLimit
// values) and the peaks are per-second counters.
type Collector struct {
	percentiles           []float64
	goodput               Goodput
	good                  int           // successful outputs that meet goodput
	origin                time.Duration // the earliest successful start
	r                     Result
	ttft, tpot, itl, e2el distribution
	last                  time.Duration // latest successful end
	tokens                []float64     // tokens per whole second from origin
	activeDelta           []int         // +1 where a request becomes active, −1 after
}

// NewCollector starts a result. origin must be the earliest Start among the
// successful outputs to come: the peaks bucket time into whole seconds from
// it, as vLLM does.
func NewCollector(percentiles []float64, origin time.Duration) *Collector {
	return &Collector{percentiles: percentiles, origin: origin}
}

// CountGoodput makes the result report request goodput against g (vLLM's
// --goodput); an empty g reports none.
func (c *Collector) CountGoodput(g Goodput) { c.goodput = g }

// Add records one request's output; it keeps nothing of o.
func (c *Collector) Add(o *Output) {
	if !o.Success {
		c.r.Failed++
		if c.r.FirstError == "" {
			c.r.FirstError = o.Error
		}
		return
	}
	c.r.Completed++
	if len(c.goodput) > 0 && c.goodput.good(o) {
		c.good++
	}
	c.r.TotalInput += o.PromptLen
	c.r.TotalOutput += o.OutputTokens
	if o.OutputTokens > 1 {
		c.tpot.add((o.Latency - o.TTFT).Seconds() / float64(o.OutputTokens-1))
	}
	for _, g := range o.ITL {
		c.itl.add(g.Seconds())
	}
	c.ttft.add(o.TTFT.Seconds())
	c.e2el.add(o.Latency.Seconds())
	c.addPeaks(o)
}

// addPeaks counts o's tokens into the second they arrived in and marks the
// seconds o was active.
func (c *Collector) addPeaks(o *Output) {
	c.last = max(c.last, o.Start+o.Latency)
	t := o.Start + o.TTFT
	c.countToken(t)
	for _, g := range o.ITL {
		t += g
		c.countToken(t)
	}
	from := int((o.Start - c.origin).Seconds())
	to := int((o.Start + o.Latency - c.origin).Seconds())
	if from < 0 || to < from {
		return
	}
	c.activeDelta = grow(c.activeDelta, to+2)
	c.activeDelta[from]++
	c.activeDelta[to+1]--
}

func (c *Collector) countToken(t time.Duration) {
	if b := int((t - c.origin).Seconds()); b >= 0 {
		c.tokens = grow(c.tokens, b+1)
		c.tokens[b]++
	}
}

// grow extends s with zeros to at least n elements.
func grow[T int | float64](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}

// Result is the figures of every output added, for a run of duration dur.
func (c *Collector) Result(dur time.Duration) Result {
	r := c.r
	r.Duration, r.Percentiles = dur, c.percentiles
	if s := dur.Seconds(); s > 0 {
		r.RequestThroughput = float64(r.Completed) / s
		r.OutputThroughput = float64(r.TotalOutput) / s
		r.TotalTokenThroughput = float64(r.TotalInput+r.TotalOutput) / s
		r.RequestGoodput = float64(c.good) / s
	}
	r.Goodput = c.goodput
	r.TTFT = c.ttft.summary(c.percentiles)
	r.TPOT = c.tpot.summary(c.percentiles)
	r.ITL = c.itl.summary(c.percentiles)
	r.E2EL = c.e2el.summary(c.percentiles)
	r.MaxOutputTokensPerS, r.MaxConcurrent = c.peaks()
	return r
}

// peaks is vLLM's peak output tokens per second and most requests active
// in one second, over the whole seconds from origin to the last end.
func (c *Collector) peaks() (float64, int) {
	if c.r.Completed == 0 || c.last < c.origin {
		return 0, 0
	}
	n := int(math.Ceil((c.last - c.origin).Seconds())) + 1
	var maxTok float64
	var maxAct, active int
	for i := range n {
		if i < len(c.tokens) {
			maxTok = max(maxTok, c.tokens[i])
		}
		if i < len(c.activeDelta) {
			active += c.activeDelta[i]
		}
		maxAct = max(maxAct, active)
	}
	return maxTok, maxAct
}
