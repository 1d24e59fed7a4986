package budget

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// liveWhy are the formulas of the one live request's stats, from its own
// trace; waited is the summary call the answer waited for (two calls in
// sequence), 0 otherwise.
func liveWhy(res *pipeline.Result, waited time.Duration) map[string]labs.Formula {
	fw := pipelinelab.MS(res.Summary.FirstWord)
	first := pipelinelab.FirstWord(res)
	if parts := pipelinelab.FirstWordParts(res); waited > 0 && len(parts) > 0 {
		// The answer's call began with the summary call: split it out.
		model := parts[len(parts)-1]
		model.Value -= pipelinelab.MS(waited)
		parts = append(parts[:len(parts)-1], labs.Term{Name: "the summary call, waited for", Value: pipelinelab.MS(waited)}, model)
		f := labs.Sum("ms", parts...)
		f.Before, f.Remainder = first.Before, first.Remainder
		first = f
	}
	out := map[string]labs.Formula{
		statFirstWord: first,
		statComplete:  pipelinelab.Complete(fw, pipelinelab.MS(res.Summary.Total), pipelinelab.AnswerTokens(res.Summary)),
	}
	var lookups []labs.Term
	for _, sp := range res.Spans {
		switch sp.Stage {
		case pipeline.StageHistory, pipeline.StageRetrieval, pipeline.StageOrder:
			lookups = append(lookups, labs.Term{Name: sp.Stage, Value: pipelinelab.MS(sp.Duration())})
		}
	}
	if len(lookups) > 0 {
		f := labs.Sum("ms", lookups...)
		if sp, ok := spanOf(res.Spans, pipeline.StageContext); ok && pipelinelab.MS(sp.Duration())+1 < f.Result {
			f = slowest(lookups)
		}
		out[statLookups] = f
	}
	return out
}

// slowest is the formula of lookups run side by side: the group takes as
// long as its slowest member.
func slowest(ts []labs.Term) labs.Formula {
	top := ts[0]
	expr := ""
	for i, t := range ts {
		if t.Value > top.Value {
			top = t
		}
		if i > 0 {
			expr += ", "
		}
		expr += t.Name + " " + labs.Figure(t.Value)
	}
	return labs.Formula{Unit: "ms", Expr: "max(" + expr + ")", Result: top.Value,
		Lead:      "Side by side, only the slowest counts: " + top.Name,
		Remainder: "starting and collecting the lookups"}
}

// batchWhy are the formulas of the batch's figures: each percentile is
// one request's first word, so its formula is that request's stages; the
// mean is the stages' means, which add up because first word is a sum.
// target is the judged percentile's first word as the card shows it;
// model names the model's term (see modelTerm).
func batchWhy(s settings, b batch, target float64, model string) map[string]labs.Formula {
	idx := make([]int, len(b.samples))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return b.samples[idx[i]].firstWord < b.samples[idx[j]].firstWord })
	at := func(p float64) labs.Formula {
		// Nearest rank, as pipelinelab.Percentile picks it.
		rank := int(math.Ceil(p / 100 * float64(len(idx))))
		sm := b.samples[idx[min(max(rank, 1), len(idx))-1]]
		f := labs.Sum("ms", sampleParts(s, sm, model)...)
		f.Result = shownMS(f.Result) // the parts add up to the request's first word, rounded as its card
		f.Before = fmt.Sprintf("The p%g request's first word = its own stages + its %s:", p, model)
		if sm.slowStage != "" {
			f.After = "This request hit a stall in the " + sm.slowStage + " stage."
		}
		f.Remainder = "rounding of the stage times"
		return f
	}
	var mean sample
	for _, sm := range b.samples {
		mean.guard += sm.guard
		mean.lookups += sm.lookups
		mean.gateway += sm.gateway
		mean.ttft += sm.ttft
		mean.second += sm.second
	}
	n := time.Duration(max(len(b.samples), 1))
	mean.guard, mean.lookups, mean.gateway, mean.ttft, mean.second = mean.guard/n, mean.lookups/n, mean.gateway/n, mean.ttft/n, mean.second/n
	mf := labs.Sum("ms", sampleParts(s, mean, model)...)
	mf.Result = shownMS(mf.Result)
	mf.Before = "Mean first word = the mean of each stage, added:"
	mf.Remainder = "rounding of the stage times"
	out := map[string]labs.Formula{statMean: mf, statP50: at(50), statP95: at(95), statP99: at(99)}
	judged := at(s.percentile)
	judged.After += fmt.Sprintf(" Against the budget of %s, this is %s.", pipelinelab.FmtMS(s.budgetMS), overUnder(target, s.budgetMS))
	out[statJudged] = judged
	return out
}

// modelTerm names the model's part of a batch request's first word: its
// own first token on the virtual clock, or, when the batch reuses the one
// request's model time, that request's wait for its first word (thinking
// included).
func modelTerm(reused bool) string {
	if reused {
		return "model time to the first word, the one request's"
	}
	return "model first token"
}

// sampleParts are one batch request's stages, composed as compose does,
// the model's part named model.
func sampleParts(s settings, sm sample, model string) []labs.Term {
	look := "lookups in a row"
	if s.parallel {
		look = "slowest lookup"
	}
	var parts []labs.Term
	if !s.guardAlong {
		parts = append(parts, labs.Term{Name: "guardrail", Value: pipelinelab.MS(sm.guard)})
	} else {
		look += " (the guardrail among them)"
	}
	parts = append(parts, labs.Term{Name: look, Value: pipelinelab.MS(sm.lookups)},
		labs.Term{Name: "prompt and gateway", Value: pipelinelab.MS(sm.gateway)})
	ttft := sm.ttft
	if s.calls == callsSequence {
		// The answer is sent only once the summary call has ended.
		parts = append(parts, labs.Term{Name: "the summary call, waited for", Value: pipelinelab.MS(sm.second)})
		ttft -= sm.second
	}
	return append(parts, labs.Term{Name: model, Value: pipelinelab.MS(ttft)})
}

func overUnder(x, budget float64) string {
	if x <= budget {
		return pipelinelab.FmtMS(budget-x) + " under"
	}
	return pipelinelab.FmtMS(x-budget) + " over"
}

// note records a second-call event's token times and prompt length.
func (c *secondCall) note(ev pipeline.StreamEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	at := c.since(ev)
	c.took = max(c.took, at)
	if ev.Done {
		c.prompt = ev.Usage.PromptTokens
	}
	if ev.Tokens <= 0 {
		return
	}
	if c.tokens == 0 {
		c.firstTok = at
	}
	c.tokens += ev.Tokens
	c.lastTok = at
}

// why is the second call's formula: its first token (reading its own
// prompt, the same conversation under another task), then its summary a
// decode step a token; in sequence the answer waited for all of it.
func (c *secondCall) why() (labs.Formula, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done || c.tokens == 0 {
		return labs.Formula{}, false
	}
	prompt := "reading its prompt"
	if c.prompt > 0 {
		prompt = fmt.Sprintf("reading its %s-token prompt", labs.Thousands(c.prompt))
	}
	rest := c.lastTok - c.firstTok
	each := ""
	if c.tokens > 1 {
		each = fmt.Sprintf(" (%s ms each)", labs.Figure(pipelinelab.MS(rest)/float64(c.tokens-1)))
	}
	f := labs.Sum("ms", labs.Term{Name: "its first token, " + prompt, Value: pipelinelab.MS(c.firstTok)},
		labs.Term{Name: fmt.Sprintf("writing %s%s", labs.Count(c.tokens-1, "more token"), each), Value: pipelinelab.MS(rest)})
	f.Before = "Second call = its first token + the rest of its one-line summary, a decode step a token:"
	f.Remainder = "the wait from its last token until the end of its stream reached the server"
	if c.together {
		f.After = "Sent with the answer, it shared the GPU's steps with it: each step carried both calls, so both ran a little slower than alone, and the first word did not wait for it."
	} else {
		f.After = "The answer was sent only once this call had ended, so all of it adds to the first word."
	}
	return f, true
}
