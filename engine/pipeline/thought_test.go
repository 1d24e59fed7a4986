package pipeline

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// eventsProvider answers at once with events modelled at their Since.
type eventsProvider struct{ evs []StreamEvent }

func (p eventsProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan streamItem, len(p.evs))
	now := time.Now()
	for _, ev := range p.evs {
		ev.At = now.Add(ev.Since)
		out <- streamItem{ev: ev}
	}
	close(out)
	return &chanStream{ctx: ctx, cancel: cancel, ch: out}, nil
}

// checkedProvider declares an output check, as a moderation wrapper does.
type checkedProvider struct{ Provider }

func (checkedProvider) ChecksOutput() bool { return true }

// A reasoning model: its first token (a <think> tag the client took out,
// no text) at 100 ms, thinking at 110 and 120 ms, the closing tag at
// 130 ms, the answer from 140 ms.
var thinkingAnswer = []StreamEvent{
	{Tokens: 1, Since: 100 * time.Millisecond},
	{Reasoning: "plan", Tokens: 1, Since: 110 * time.Millisecond},
	{Reasoning: " more", Tokens: 1, Since: 120 * time.Millisecond},
	{Tokens: 1, Since: 130 * time.Millisecond},
	{Text: "Yes", Tokens: 1, Since: 140 * time.Millisecond},
	{Text: " sure", Tokens: 1, Since: 150 * time.Millisecond},
	{Done: true, FinishReason: "stop", Since: 150 * time.Millisecond, Usage: Usage{PromptTokens: 9, CompletionTokens: 6}},
}

// First word is the first answer text, not the first thinking token;
// the thinking is shown apart, counted and timed, and withheld when an
// output check is on.
func TestThinkingBeforeTheAnswer(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name        string
		evs         []StreamEvent
		checked     bool
		buffered    bool
		firstToken  time.Duration
		firstWord   time.Duration
		thinking    time.Duration
		thinkTokens int
		hidden      bool
		text        string
		reasoning   string
		events      string // the kinds of text events, in order, with their tokens
	}{
		{name: "thinking then answer", evs: thinkingAnswer, firstToken: 100 * ms, firstWord: 140 * ms,
			thinking: 40 * ms, thinkTokens: 4, text: "Yes sure", reasoning: "plan more",
			events: "thinking:plan/2 thinking: more/1 thinking:/1 delta:Yes/1 delta: sure/1"},
		{name: "an output check withholds the thinking", evs: thinkingAnswer, checked: true, firstToken: 100 * ms, firstWord: 140 * ms,
			thinking: 40 * ms, thinkTokens: 4, hidden: true, text: "Yes sure",
			events: "thinking:/2 thinking:/1 thinking:/1 delta:Yes/1 delta: sure/1"},
		{name: "buffered: the thinking comes with the answer", evs: thinkingAnswer, buffered: true, firstToken: 100 * ms, firstWord: 150 * ms,
			thinking: 40 * ms, thinkTokens: 4, text: "Yes sure", reasoning: "plan more",
			events: "thinking:plan more/4 delta:Yes sure/2"},
		{name: "the answer starts inside a thinking chunk", evs: []StreamEvent{
			{Reasoning: "hm", Tokens: 1, Since: 50 * ms},
			{Reasoning: "m", Text: "Ok", Tokens: 3, Since: 80 * ms},
			{Done: true, FinishReason: "stop", Since: 80 * ms, Usage: Usage{CompletionTokens: 4}},
		}, firstToken: 50 * ms, firstWord: 80 * ms, thinking: 30 * ms, thinkTokens: 1, text: "Ok", reasoning: "hmm",
			events: "thinking:hm/1 thinking:m/0 delta:Ok/3"},
		{name: "thinking cut off before any answer", evs: []StreamEvent{
			{Reasoning: "a", Tokens: 1, Since: 50 * ms},
			{Reasoning: "b", Tokens: 1, Since: 70 * ms},
			{Done: true, FinishReason: "length", Since: 70 * ms, Usage: Usage{CompletionTokens: 2}},
		}, firstToken: 50 * ms, thinking: 20 * ms, thinkTokens: 2, reasoning: "ab",
			events: "thinking:a/1 thinking:b/1"},
		{name: "no thinking: as before", evs: []StreamEvent{
			{Text: "Hi", Tokens: 1, Since: 60 * ms},
			{Tokens: 1, Since: 70 * ms},
			{Text: "!", Tokens: 1, Since: 80 * ms},
			{Done: true, FinishReason: "stop", Since: 80 * ms, Usage: Usage{CompletionTokens: 3}},
		}, firstToken: 60 * ms, firstWord: 60 * ms, text: "Hi!", events: "delta:Hi/1 delta:/1 delta:!/1"},
		{name: "a first token without text is no word", evs: []StreamEvent{
			{Tokens: 1, Since: 60 * ms},
			{Text: "é", Tokens: 1, Since: 70 * ms},
			{Done: true, FinishReason: "stop", Since: 70 * ms, Usage: Usage{CompletionTokens: 2}},
		}, firstToken: 60 * ms, firstWord: 70 * ms, text: "é", events: "delta:é/2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var prov Provider = eventsProvider{evs: c.evs}
			if c.checked {
				prov = checkedProvider{prov}
			}
			cfg := bareConfig()
			cfg.Gateway.Buffered = c.buffered
			p := mustNew(t, cfg, Deps{Tiers: tiers(prov, nil)})
			var events []string
			res := mustRun(t, p, t.Context(), Request{Question: "Is it in stock?"}, func(ev Event) {
				if ev.Kind == EventDelta || ev.Kind == EventThinking {
					events = append(events, ev.Kind+":"+ev.Text+"/"+strconv.Itoa(ev.Tokens))
					if ev.Kind == EventThinking && ev.Hidden != c.hidden {
						t.Errorf("thinking event hidden %v, want %v", ev.Hidden, c.hidden)
					}
				}
			})
			sum := res.Summary
			if sum.FirstToken != c.firstToken || sum.FirstWord != c.firstWord || sum.Thinking != c.thinking {
				t.Errorf("first token %v, first word %v, thinking %v; want %v, %v, %v",
					sum.FirstToken, sum.FirstWord, sum.Thinking, c.firstToken, c.firstWord, c.thinking)
			}
			if sum.ThinkingTokens != c.thinkTokens || sum.ThinkingHidden != c.hidden {
				t.Errorf("%d thinking tokens, hidden %v; want %d, %v", sum.ThinkingTokens, sum.ThinkingHidden, c.thinkTokens, c.hidden)
			}
			if res.Text != c.text || res.Reasoning != c.reasoning {
				t.Errorf("text %q, reasoning %q; want %q, %q", res.Text, res.Reasoning, c.text, c.reasoning)
			}
			if got := strings.Join(events, " "); got != c.events {
				t.Errorf("events %s\nwant   %s", got, c.events)
			}
			if fw := span(t, res, StageFirstToken, 0); fw.End != c.firstToken {
				t.Errorf("first-token span ends at %v, want %v", fw.End, c.firstToken)
			}
		})
	}
}
