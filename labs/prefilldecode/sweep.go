package prefilldecode

import (
	"context"
	"fmt"
	"github.com/latencylab/latencylab/labs"
	"math"

	"github.com/latencylab/latencylab/engine"
)

// Sweep ranges. Prompt lengths run from sweepMinPrompt to sweepMaxPrompt
// (clamped to what the context and the KV cache hold) in sweepPoints
// geometric steps: 128, 256, … 16,384 when nothing clamps. Answer lengths
// run from 1 to sweepMaxOutput in sweepPoints even steps.
const (
	sweepPoints    = 8
	sweepMinPrompt = 128
	sweepMaxPrompt = 16384
	sweepMaxOutput = 1000
)

// sample is one measured request of the sweep.
type sample struct {
	tokens int     // prompt tokens (TTFT sweep) or output tokens (decode sweep)
	ms     float64 // TTFT or decode time
}

// sweep is what the virtual-clock runs measured.
type sweep struct {
	ttft      []sample // TTFT against prompt length
	decode    []sample // decode time (first to last token) against output length
	ttftFit   line     // ms against prompt tokens
	decodeFit line     // ms against output tokens
	// prefill and decode are the learner's request's own steps, run alone
	// on an idle engine, with the cost model's inputs recorded.
	prefill, decodeWork phaseWork
	work                workModel
}

// runSweep runs single requests, each on a fresh idle engine on the virtual
// clock: one per prompt length (answer as the learner chose) and one per
// answer length (the learner's prompt), then the learner's own request with
// its steps recorded for the roofline. ctx is checked between runs.
func runSweep(ctx context.Context, s settings, learner engine.Request, systemTokens int) (sweep, error) {
	var sw sweep
	w, err := newWorkModel(s.engine)
	if err != nil {
		return sw, err
	}
	sw.work = w
	fp, err := s.engine.Footprint()
	if err != nil {
		return sw, fmt.Errorf("sweep: %w", err)
	}
	room := min(s.engine.Model.MaxContextLen, fp.KVTokens)
	prompt := len(learner.PromptTokens)

	for _, n := range promptLengths(room - s.output) {
		if err := ctx.Err(); err != nil {
			return sw, err
		}
		p, err := buildPrompt(promptSpec{plain: true, total: n, system: systemTokens}, "Sweep", 0)
		if err != nil {
			return sw, fmt.Errorf("sweep: prompt of %d: %w", n, err)
		}
		r, err := simulateOne(s.engine, engine.Request{ID: "ttft", PromptTokens: p.ids, MaxTokens: s.output, IgnoreEOS: true})
		if err != nil {
			return sw, fmt.Errorf("sweep: prompt of %d: %w", n, err)
		}
		sw.ttft = append(sw.ttft, sample{tokens: len(p.ids), ms: labs.Millis(r.TTFT())})
	}
	for _, n := range outputLengths(min(sweepMaxOutput, room-prompt)) {
		if err := ctx.Err(); err != nil {
			return sw, err
		}
		r, err := simulateOne(s.engine, engine.Request{ID: "decode", PromptTokens: learner.PromptTokens, MaxTokens: n, IgnoreEOS: true})
		if err != nil {
			return sw, fmt.Errorf("sweep: answer of %d: %w", n, err)
		}
		sw.decode = append(sw.decode, sample{tokens: r.Usage.CompletionTokens, ms: labs.Millis(r.E2E() - r.TTFT())})
	}
	if err := ctx.Err(); err != nil {
		return sw, err
	}
	sw.ttftFit = fitSamples(sw.ttft)
	sw.decodeFit = fitSamples(sw.decode)

	rec, err := recordSteps(s.engine, learner)
	if err != nil {
		return sw, err
	}
	sw.prefill, sw.decodeWork = phases(w, rec)
	return sw, nil
}

// recordSteps runs req alone on the virtual clock with the engine's own
// cost model wrapped in a recorder and returns every step it priced.
func recordSteps(cfg engine.Config, req engine.Request) ([]recordedStep, error) {
	inner, err := engine.NewRoofline(cfg)
	if err != nil {
		return nil, fmt.Errorf("sweep: cost model: %w", err)
	}
	rec := &recorder{inner: inner}
	cfg.Cost = rec
	req.ID = "roofline"
	if _, err := engine.Simulate(cfg, []engine.Request{req}, engine.SimOptions{}); err != nil {
		return nil, fmt.Errorf("sweep: your request: %w", err)
	}
	return rec.steps, nil
}

// simulateOne runs one request on a fresh engine on the virtual clock.
func simulateOne(cfg engine.Config, req engine.Request) (engine.RequestResult, error) {
	res, err := engine.Simulate(cfg, []engine.Request{req}, engine.SimOptions{})
	if err != nil {
		return engine.RequestResult{}, err
	}
	return res.Requests[0], nil
}

// promptLengths are the sweep's prompt lengths up to max tokens.
func promptLengths(maxTokens int) []int {
	hi := min(sweepMaxPrompt, maxTokens)
	if hi <= sweepMinPrompt {
		return []int{max(hi, 1)}
	}
	out := make([]int, 0, sweepPoints)
	ratio := math.Pow(float64(hi)/sweepMinPrompt, 1/float64(sweepPoints-1))
	for i := range sweepPoints {
		n := int(math.Round(sweepMinPrompt * math.Pow(ratio, float64(i))))
		out = append(out, min(n, hi))
	}
	return out
}

// outputLengths are the sweep's answer lengths, 1 to max in even steps.
func outputLengths(maxTokens int) []int {
	if maxTokens < sweepPoints {
		out := make([]int, 0, maxTokens)
		for n := 1; n <= maxTokens; n++ {
			out = append(out, n)
		}
		return out
	}
	out := make([]int, 0, sweepPoints)
	for i := range sweepPoints {
		out = append(out, 1+int(math.Round(float64(i)*float64(maxTokens-1)/float64(sweepPoints-1))))
	}
	return out
}
