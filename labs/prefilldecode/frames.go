package prefilldecode

import (
	"fmt"
	"strconv"

	"github.com/latencylab/latencylab/labs"
)

// Stat keys; ttft_ms is what the prediction is compared with.
const (
	statTTFT         = "ttft_ms"
	statDecode       = "decode_ms"
	statTPOT         = "tpot_ms"
	statPrompt       = "prompt_tokens"
	statPrefillI     = "prefill_intensity"
	statDecodeI      = "decode_intensity"
	statRidge        = "ridge_point"
	statCached       = "cached_tokens"
	statSecondTTFT   = "second_ttft_ms"
	statPer1kPrompt  = "ms_per_1k_prompt_tokens"
	statPerOutputTok = "ms_per_output_token"
)

// Chart ids and series names.
const (
	chartTTFT     = "ttft-vs-prompt"
	chartDecode   = "decode-vs-output"
	chartRoofline = "roofline"
	chartPrompt   = "prompt-parts"
	chartCaching  = "prefix-caching"

	seriesSweep   = "single requests (virtual clock)"
	seriesFit     = "least-squares fit"
	seriesYours   = "your request (live)"
	seriesRoof    = "roof"
	seriesPrefill = "prefill"
	seriesDecode  = "decode"
	segCached     = "served from cache"
	segComputed   = "computed"
	segTTFT       = "time to first token"
)

// view turns what the run measured so far into frames. Nothing in it is
// computed ahead of the run: every figure comes from the sweep, the
// recorded steps or the handler's measurements.
type view struct {
	s            settings
	prompt       prompt
	secondPrompt prompt
	sweep        *sweep
	first        *measurement
	second       *measurement
	// notes end the final status: a busy host, a shared GPU.
	notes []string
	// whyTTFT and whyTPOT are the roofline arithmetic behind the first
	// request's stats (labs.Why).
	whyTTFT, whyTPOT string
	// why are the formulas of the decode time and the fitted slopes.
	why map[string]labs.Formula
}

// frame is the state of every panel now.
func (v *view) frame(status string) labs.Frame {
	f := labs.Frame{Status: status, Stats: v.stats(), Charts: []labs.Chart{v.promptChart()}}
	labs.Explain(f.Stats, v.why)
	labs.Explain(f.Stats, v.countWhy())
	if v.sweep != nil {
		f.Charts = append(f.Charts, v.ttftChart(), v.decodeChart(), v.rooflineChart())
	}
	if v.second != nil && v.second.done {
		f.Charts = append(f.Charts, v.cachingChart())
		f.Tables = []labs.Table{v.cachingTable()}
	}
	return f
}

func (v *view) firstStatus() string {
	m := v.first
	n := len(v.prompt.ids)
	switch {
	case m.done:
		return fmt.Sprintf("Your request: first token after %s, then %s tokens in %s. Sending a second customer's request…",
			labs.FormatMS(labs.Millis(m.ttft)), labs.Thousands(m.tokens), labs.FormatMS(labs.Millis(m.decode())))
	case m.tokens > 0:
		return fmt.Sprintf("First token after %s. Decoding: %s of %s tokens.", labs.FormatMS(labs.Millis(m.ttft)), labs.Thousands(m.tokens), labs.Thousands(v.s.output))
	case m.elapsed > 0:
		return fmt.Sprintf("Prefill: the GPU is reading your %s-token prompt (%s so far).", labs.Thousands(n), labs.FormatMS(labs.Millis(m.elapsed)))
	}
	return fmt.Sprintf("Prefill: the GPU is reading your %s-token prompt.", labs.Thousands(n))
}

func (v *view) secondStatus() string {
	if v.s.caching {
		return "A second customer with the same system prompt: the engine looks for its prefix in the cache…"
	}
	return "A second customer with prefix caching off: the engine computes every prompt token again…"
}

func (v *view) finalStatus() string {
	m, m2 := v.first, v.second
	s := fmt.Sprintf("Done. Prefill of %s tokens: %s to the first token. Decode: %s per token over %s.",
		labs.Thousands(len(v.prompt.ids)), labs.FormatMS(labs.Millis(m.ttft)), fmtMSPrecise(labs.Millis(m.tpot())), labs.Count(m.tokens, "token"))
	if v.s.caching {
		s += fmt.Sprintf(" The second customer reused %s cached tokens: first token after %s.",
			labs.Thousands(m2.usage.CachedTokens), labs.FormatMS(labs.Millis(m2.ttft)))
	}
	return labs.JoinNotes(s, v.notes...)
}

// stats lists the figures measured so far; the final frame has them all.
func (v *view) stats() []labs.Stat {
	var out []labs.Stat
	add := func(key, label string, val float64, unit, note string) {
		out = append(out, labs.Stat{Key: key, Label: label, Value: val, Unit: unit, Note: note})
	}
	if m := v.first; m != nil && m.tokens > 0 {
		note, why := "your request, on the GPU's clock", v.whyTTFT
		if ttft := labs.Millis(m.ttft); m.server != "" {
			note, why = "your request, measured on that server", labs.MeasuredTTFT(m.server, ttft, 0, m.thinkingFirst).Text(ttft)
			if m.thinkingFirst {
				note = "your request's first token (thinking), measured on that server"
			}
		}
		add(statTTFT, "Time to first token", labs.Millis(m.ttft), "ms", note)
		out[len(out)-1].Why = why
	}
	if m := v.first; m != nil && m.done {
		add(statDecode, "Decode time", labs.Millis(m.decode()), "ms", "first token to last")
		if m.tokens > 1 {
			add(statTPOT, "Time per output token", labs.Millis(m.tpot()), "ms", "decode time ÷ (tokens − 1)")
			out[len(out)-1].Why = v.whyTPOT
			if tpot := labs.Millis(m.tpot()); m.server != "" {
				out[len(out)-1].Why = labs.MeasuredTPOT(m.server, labs.Millis(m.ttft), labs.Millis(m.last), m.tokens).Text(tpot)
			}
		}
	}
	add(statPrompt, "Prompt", float64(len(v.prompt.ids)), "tokens", "counted by the tokenizer")
	if sw := v.sweep; sw != nil {
		if sw.ttftFit.ok {
			add(statPer1kPrompt, "Prefill cost", sw.ttftFit.slope*1000, "ms per 1k tokens", "slope of the TTFT fit")
		}
		if sw.decodeFit.ok {
			add(statPerOutputTok, "Decode cost", sw.decodeFit.slope, "ms per token", "slope of the decode-time fit")
		}
		add(statPrefillI, "Prefill intensity", sw.prefill.intensity(), "FLOPs/byte", "your prompt's prefill")
		if sw.decodeWork.steps > 0 { // a one-token answer has no decode step
			add(statDecodeI, "Decode intensity", sw.decodeWork.intensity(), "FLOPs/byte", "your answer's decode steps")
		}
		add(statRidge, "Ridge point", sw.work.ridge(), "FLOPs/byte", "peak FLOP/s ÷ memory bandwidth")
	}
	if m := v.second; m != nil && m.done {
		note := "prefix caching off"
		if v.s.caching {
			note = "second customer, shared system prompt"
		}
		add(statSecondTTFT, "Second customer's TTFT", labs.Millis(m.ttft), "ms", note)
		add(statCached, "Cached tokens", float64(m.usage.CachedTokens), "tokens", "second customer, from the engine's usage")
	}
	return out
}

// fmtMSPrecise keeps a decimal for short times such as a time per token.
func fmtMSPrecise(v float64) string {
	if v < 100 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return labs.FormatMS(v)
}
