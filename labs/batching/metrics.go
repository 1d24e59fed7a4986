package batching

import (
	"math"
	"slices"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// outcome is one finished request's engine times, the input to every
// latency figure.
type outcome struct {
	arrival, first, end time.Duration
	tokens              int
}

func (o outcome) ttft() time.Duration { return o.first - o.arrival }

// tpot is (E2E − TTFT) / (output tokens − 1), vLLM's definition; 0 for a
// one-token answer.
func (o outcome) tpot() time.Duration {
	if o.tokens < 2 {
		return 0
	}
	return (o.end - o.first) / time.Duration(o.tokens-1)
}

// summary is the figures of a set of finished requests, defined as
// vllm bench serve defines them.
type summary struct {
	completed    int
	outputTokens int
	duration     time.Duration // first arrival to last token
	ttft, tpot   []float64     // ms, sorted
	good         int           // requests within both SLOs
}

func summarize(outs []outcome, ttftSLO, tpotSLO time.Duration) summary {
	var s summary
	if len(outs) == 0 {
		return s
	}
	first, last := outs[0].arrival, outs[0].end
	for _, o := range outs {
		s.completed++
		s.outputTokens += o.tokens
		first, last = min(first, o.arrival), max(last, o.end)
		s.ttft = append(s.ttft, labs.Millis(o.ttft()))
		if o.tokens > 1 {
			s.tpot = append(s.tpot, labs.Millis(o.tpot()))
		}
		if o.ttft() <= ttftSLO && o.tpot() <= tpotSLO {
			s.good++
		}
	}
	slices.Sort(s.ttft)
	slices.Sort(s.tpot)
	s.duration = last - first
	return s
}

// throughput is output tokens per second over the run.
func (s summary) throughput() float64 { return perSecond(float64(s.outputTokens), s.duration) }

// goodput is requests per second that met both SLOs.
func (s summary) goodput() float64 { return perSecond(float64(s.good), s.duration) }

func perSecond(n float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return n / d.Seconds()
}

// percentile is numpy's default (linear interpolation between closest
// ranks) over sorted values, as vllm bench serve reports; 0 when empty.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := p / 100 * float64(len(sorted)-1)
	i := int(math.Floor(pos))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i] + f*(sorted[i+1]-sorted[i])
}
