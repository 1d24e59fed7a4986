package labs

import (
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// Steps is the roofline of one request's own steps on cfg's model and
// GPU, alone: the prefill step over its prompt and a decode step in the
// middle of its answer. Its formulas start from these and add what a run
// measured on top (the network, other requests in the same steps), so
// they end at the figure the card shows rather than at the GPU alone.
type Steps struct {
	prompt          int
	chunked         string
	prefill, decode engine.StepBreakdown
}

// NewSteps is the roofline of a request of promptTokens and answerTokens
// on cfg; ok is false when cfg has no roofline.
func NewSteps(cfg engine.Config, promptTokens, answerTokens int) (s Steps, ok bool) {
	r, err := engine.NewRoofline(cfg)
	if err != nil || promptTokens <= 0 {
		return Steps{}, false
	}
	p := promptTokens
	ctx := p + answerTokens/2 // a decode step in the middle of the answer
	s = Steps{prompt: p,
		prefill: r.Explain(prefillShape(p, 0)),
		decode:  r.Explain(decodeShape(ctx))}
	if cfg.ChunkedPrefill && cfg.MaxNumBatchedTokens > 0 && p > cfg.MaxNumBatchedTokens {
		s.chunked = fmt.Sprintf(" (longer than the %s-token step budget, so it is read in chunks over several steps)", Thousands(cfg.MaxNumBatchedTokens))
	}
	return s, true
}

// TTFT is the first token as the prefill step alone, plus network (the
// round trips to a hosted provider, 0 next door) and, when sh says other
// requests shared the engine, whatever else the measured first token
// holds: queueing behind them and sharing their steps.
func (s Steps) TTFT(measured float64, network float64, sh live.Sharing) Formula {
	pf := s.prefill
	parts := append(s.bound(pf), Term{Name: "fixed step overhead", Value: Millis(pf.Overhead + pf.AllReduce)})
	if network > 0 {
		parts = append(parts, Term{Name: "network to the provider and back", Value: network})
	}
	f := s.withOthers(parts, measured, sh, "waiting behind and sharing steps with the other requests")
	f.Before = fmt.Sprintf("The first token is one prefill step over your %s-token prompt%s. Its compute, %s ÷ (%s TFLOP/s × %.0f%%), takes %s; "+
		"reading %.1f GB of weights ÷ (%s GB/s × %.0f%%) takes %s. The larger sets the step: it is %s. Time to first token =",
		Thousands(s.prompt), s.chunked, flops(pf), Whole(pf.PeakFLOPS/1e12), pf.MatmulMFU*100, ms(pf.Compute),
		pf.Bytes/1e9, Thousands(int(pf.Bandwidth/1e9)), pf.MemEfficiency*100, ms(pf.Memory), bound(pf))
	f.Remainder = "the prompt's chunks and the engine's scheduling"
	return f
}

// TPOT is the time per output token as one decode step alone, plus, when
// the run measured more, what the other sequences in the same steps added
// (from sh) or, with capMS > 0 (a speed cap's ms per token) holding the
// tokens back, the wait the cap adds.
func (s Steps) TPOT(measured float64, capMS float64, sh live.Sharing) Formula {
	d := s.decode
	parts := append(s.bound(d), Term{Name: "fixed step overhead", Value: Millis(d.Overhead + d.AllReduce)})
	var f Formula
	if gap := measured - Millis(d.Total); capMS > 0 && capMS >= 0.98*measured && gap > 0 {
		f = Sum("ms", append(parts, Term{Name: "held back to the speed cap", Value: gap})...)
	} else {
		f = s.withOthers(parts, measured, sh, othersInEachStep(sh, gap))
	}
	f.Before = fmt.Sprintf("Each later token is one decode step. Alone on the GPU the step reads %.1f GB of weights and KV cache ÷ (%s GB/s × %.0f%%) in %s, "+
		"while its compute, %s ÷ (%s TFLOP/s × %.0f%%), takes %s. The larger sets the step: it is %s. Time per output token =",
		d.Bytes/1e9, Thousands(int(d.Bandwidth/1e9)), d.MemEfficiency*100, ms(d.Memory),
		flops(d), Whole(d.PeakFLOPS/1e12), d.MatmulMFU*100, ms(d.Compute), bound(d))
	f.Remainder = "the answer's steps growing with its context and the engine's scheduling"
	return f
}

// bound is the part of a step its bound sets: compute or reading memory.
func (s Steps) bound(b engine.StepBreakdown) []Term {
	if b.ComputeBound() {
		return []Term{{Name: "compute", Value: Millis(b.Compute)}}
	}
	return []Term{{Name: "reading the weights and KV cache", Value: Millis(b.Memory)}}
}

// withOthers sums parts and, when other requests shared the run's steps
// and the measured figure is larger, names the difference others.
func (s Steps) withOthers(parts []Term, measured float64, sh live.Sharing, others string) Formula {
	var sum float64
	for _, p := range parts {
		sum += p.Value
	}
	if gap := measured - sum; sh.Others > 0 && gap > 0 {
		parts = append(parts, Term{Name: others, Value: gap})
	}
	return Sum("ms", parts...)
}

// othersInEachStep names what the other sequences in a request's steps
// added to each of them, gap ms in all: how many there were on average
// and what each cost.
func othersInEachStep(sh live.Sharing, gap float64) string {
	n := sh.MeanBatch - 1
	if n < 0.5 || gap <= 0 {
		return "other requests in some of its steps"
	}
	return fmt.Sprintf("the ~%s other sequences in each step (%s ms each)", Whole(n), Figure(gap/n))
}
