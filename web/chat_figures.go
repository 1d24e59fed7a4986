package web

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/views"
)

// chatFigures is the latency breakdown of one answer, filled in from the
// pipeline's events while it streams and from its Result at the end, and
// stored as JSON beside the message. Nil durations are not measured (yet).
type chatFigures struct {
	GuardMs      *float64 `json:"guard_ms,omitempty"`
	Guard        string   `json:"guard,omitempty"` // the verdict, e.g. "allow", "redact: pii: email"
	LookupsMs    *float64 `json:"lookups_ms,omitempty"`
	PromptMs     *float64 `json:"prompt_ms,omitempty"`
	FirstTokenMs *float64 `json:"first_token_ms,omitempty"`
	FirstWordMs  *float64 `json:"first_word_ms,omitempty"`
	TotalMs      *float64 `json:"total_ms,omitempty"`
	PromptTokens int      `json:"prompt_tokens,omitempty"`
	OutputTokens int      `json:"output_tokens,omitempty"`
	Tier         string   `json:"tier,omitempty"`
	// Server is the one upstream server that answered, its URL and model;
	// it replaces the tier and the price, which describe bundled tiers.
	Server   string   `json:"server,omitempty"`
	Cached   bool     `json:"cached,omitempty"`
	Fallback string   `json:"fallback,omitempty"` // e.g. "medium: first-token timeout"
	Cost     *float64 `json:"cost_usd,omitempty"`
	Sources  []string `json:"sources,omitempty"`
	// Message is why an answer did not complete, for the note under it.
	Message string `json:"message,omitempty"`
	// A reasoning model's thinking: how long, how many tokens, whether
	// it was withheld, and what was shown of it (kept here so the folded
	// thinking is still there after a reload).
	ThinkingMs     *float64 `json:"thinking_ms,omitempty"`
	ThinkingTokens int      `json:"thinking_tokens,omitempty"`
	ThinkingHidden bool     `json:"thinking_hidden,omitempty"`
	Reasoning      string   `json:"reasoning,omitempty"`
	// While streaming: when the thinking began and ended, and whether the
	// answer has begun.
	thinkFrom, thinkTo time.Duration
	answering          bool
}

func ms(d time.Duration) *float64 {
	v := float64(d) / float64(time.Millisecond)
	return &v
}

// span records a finished stage.
func (f *chatFigures) span(sp pipeline.Span) {
	switch sp.Stage {
	case pipeline.StageGuardrail:
		f.GuardMs, f.Guard = ms(sp.Duration()), sp.Detail
	case pipeline.StageContext:
		f.LookupsMs = ms(sp.Duration())
	case pipeline.StagePrompt:
		f.PromptMs = ms(sp.Duration())
		if n, ok := strings.CutSuffix(sp.Detail, " tokens"); ok {
			if v, err := strconv.Atoi(n); err == nil {
				f.PromptTokens = v
			}
		}
	case pipeline.StageFirstToken:
		if sp.Err == "" {
			f.FirstTokenMs, f.Tier = ms(sp.Duration()), sp.Tier
		}
	}
}

// observe updates the live figures from one pipeline event.
func (f *chatFigures) observe(ev pipeline.Event) {
	switch ev.Kind {
	case pipeline.EventStageEnd:
		f.span(ev.Span)
	case pipeline.EventThinking:
		f.thinking(ev)
	case pipeline.EventDelta:
		if ev.Text != "" && !f.answering {
			f.answering, f.FirstWordMs = true, ms(ev.At)
			if f.ThinkingMs != nil {
				f.thinkTo = ev.At // the thinking lasted until the answer began
				f.ThinkingMs = ms(f.thinkTo - f.thinkFrom)
			}
		}
		f.OutputTokens += ev.Tokens
		if ev.Tier != "" {
			f.Tier = ev.Tier
		}
	}
}

// fromResult replaces the live figures with the run's own account.
func (f *chatFigures) fromResult(res *pipeline.Result) {
	*f = chatFigures{}
	for _, sp := range res.Spans {
		f.span(sp)
	}
	v := res.Verdict
	if v.Action != "" {
		f.Guard = v.Action
		if len(v.Reasons) > 0 {
			f.Guard += ": " + strings.Join(v.Reasons, ", ")
		}
	}
	sum := res.Summary
	if res.Text != "" {
		f.FirstWordMs, f.TotalMs = ms(sum.FirstWord), ms(sum.Total)
	}
	if sum.FirstToken > 0 || res.Cached {
		f.FirstTokenMs = ms(sum.FirstToken)
	}
	if sum.PromptTokens > 0 {
		f.PromptTokens = sum.PromptTokens
	}
	f.OutputTokens = sum.OutputTokens
	f.Tier, f.Cached = res.Tier, res.Cached
	if len(res.Attempts) > 0 {
		f.Cost = &sum.Cost
	}
	var failed []string
	for _, a := range res.Attempts {
		if a.Outcome != "answered" && a.Outcome != "cache hit" && a.Outcome != "" {
			failed = append(failed, a.Tier+": "+a.Outcome)
		}
	}
	if res.Status == pipeline.StatusComplete && len(failed) > 0 {
		f.Fallback = strings.Join(failed, "; ")
	}
	seen := map[string]bool{}
	for _, ch := range res.Lookups.Chunks {
		if ch.Article != "" && !seen[ch.Article] {
			seen[ch.Article] = true
			f.Sources = append(f.Sources, ch.Article)
		}
	}
	f.Message = failureReason(res)
	if sum.Thinking > 0 || sum.ThinkingTokens > 0 {
		f.ThinkingMs, f.ThinkingTokens = ms(sum.Thinking), sum.ThinkingTokens
		f.ThinkingHidden, f.Reasoning = sum.ThinkingHidden, res.Reasoning
	}
}

// failureReason says, for the learner, why an answer did not complete.
func failureReason(res *pipeline.Result) string {
	switch res.Status {
	case pipeline.StatusComplete, pipeline.StatusCancelled:
		return ""
	case pipeline.StatusBlocked:
		if len(res.Verdict.Reasons) > 0 {
			return strings.Join(res.Verdict.Reasons, ", ") + "."
		}
		return ""
	case pipeline.StatusTimeout:
		return "it took longer than this desk allows (" + shortErr(res.Err) + "). Ask again, or ask a shorter question."
	}
	var tried []string
	for _, a := range res.Attempts {
		s := a.Tier + " " + a.Outcome
		if a.Err != "" {
			s += " (" + truncateRunes(a.Err, 160) + ")"
		}
		tried = append(tried, s)
	}
	if len(tried) == 0 {
		return "the model could not be reached (" + shortErr(res.Err) + "). Please try again."
	}
	if res.Text == "" {
		return "the model could not be reached or sent a reply that could not be read — " + strings.Join(tried, "; ") + ". Please try again."
	}
	return "the model failed part-way — " + strings.Join(tried, "; ") + ". Ask again to get the rest."
}

func shortErr(err error) string {
	if err == nil {
		return "no detail"
	}
	var ie *pipeline.InputError
	if errors.As(err, &ie) {
		return ie.Reason
	}
	return truncateRunes(err.Error(), 160)
}

// view lists the measured figures in pipeline order.
func (f chatFigures) view() []views.ChatFigure {
	var out []views.ChatFigure
	add := func(key, label, value, title string) {
		out = append(out, views.ChatFigure{Key: key, Label: label, Value: value, Title: title})
	}
	dur := func(v *float64) string { return views.FormatValue(*v, "ms") }
	if f.GuardMs != nil {
		add("guardrail", "guardrail", dur(f.GuardMs), "Input guardrail (classifier plus its service call); verdict: "+f.Guard)
	}
	if f.LookupsMs != nil {
		add("lookups", "lookups", dur(f.LookupsMs), "History, knowledge-base search and order lookup, run in parallel: the slowest sets the wait")
	}
	if f.PromptMs != nil {
		add("prompt", "prompt", dur(f.PromptMs), "Prompt assembly and the gateway hop")
	}
	if f.FirstTokenMs != nil {
		title := "The model's time to first token: from the call to its first token"
		if f.ThinkingMs != nil {
			title += ", here a thinking token"
		}
		add("ttft", "first token", dur(f.FirstTokenMs), title)
	}
	if f.ThinkingMs != nil {
		add("thinking", "thinking", f.thinkingValue(), "How long the model thought before its answer began, and the tokens it spent on it")
	}
	if f.FirstWordMs != nil {
		add("first-word", "first word", dur(f.FirstWordMs), "What you waited: from sending to the first word on screen")
	}
	if f.TotalMs != nil {
		add("total", "total", dur(f.TotalMs), "From sending to the last word")
	}
	if f.PromptTokens > 0 || f.OutputTokens > 0 {
		title := "Prompt tokens (system, retrieved passages, order, history, question) and answer tokens"
		if f.ThinkingMs != nil {
			title = "Prompt tokens (system, retrieved passages, order, history, question) and the tokens the model wrote, its thinking included"
		}
		add("tokens", "tokens", fmt.Sprintf("%s in · %s out", views.FormatNumber(float64(f.PromptTokens)), views.FormatNumber(float64(f.OutputTokens))), title)
	}
	if f.Server != "" {
		server, title := f.Server, "The OpenAI-compatible server that wrote this answer, and its model"
		if f.Cached {
			server += " (cache)"
			title = "Replayed from the exact-match response cache; first written by this server"
		}
		add("server", "server", server, title)
		return out // a tier and a price describe the bundled tiers only
	}
	if f.Tier != "" {
		tier := f.Tier
		title := "The model tier that answered"
		if f.Cached {
			tier += " (cache)"
			title = "Replayed from the exact-match response cache"
		}
		if f.Fallback != "" {
			tier += " (fallback)"
			title += "; before it: " + f.Fallback
		}
		add("tier", "tier", tier, title)
	}
	if f.Cost != nil {
		add("cost", "cost", formatUSD(*f.Cost), "Tokens × the tier's price, every attempt included")
	}
	return out
}

// formatUSD shows a small cost with enough digits to be non-zero.
func formatUSD(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v >= 0.01:
		return fmt.Sprintf("$%.2f", v)
	}
	return "$" + strconv.FormatFloat(v, 'f', 6, 64)
}
