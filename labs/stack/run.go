package stack

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
)

// frameEvery is the least GPU time between two live frames.
const frameEvery = 50 * time.Millisecond

// The request is a support assistant's answer from a few notes of its own.
const question = "My refund shows as issued but has not reached my card. What happens next?"

var notes = []string{
	"Refunds leave our side the day they are approved and show as issued in the order history.",
	"A card issuer usually needs three to five working days to put an issued refund back on the card.",
	"Some banks list the refund as a new credit rather than cancelling the original charge.",
	"If ten working days pass with nothing on the statement, the support team can send the bank a trace reference.",
	"Store credit, unlike a card refund, is available in the account as soon as it is issued.",
}

// run sends one answer request to the tier's shared engine and, as tokens
// come, pushes them through the hops: the provider's format, the gateway,
// the proxy and the browser. Frames show the browser's view at each
// token; the final frame adds every hop's raw events. Figures are GPU
// times through the hops' rules; the handler's own lateness only goes into
// the busy note. run returns ctx.Err() when ctx ends (the engine request is
// aborted) and an error only for failures on the server's side.
func (l *Lab) run(ctx context.Context, p params, emit func(labs.Frame)) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	_, id := l.IDs.Next()
	msgs := []textmodel.Message{
		{Role: textmodel.RoleSystem, Content: "Session " + id + "\nAnswer from the notes.\n" + strings.Join(notes, "\n")},
		{Role: textmodel.RoleUser, Content: question},
	}
	prompt := textmodel.PromptTokens(msgs)
	ans := textmodel.Compose(textmodel.ComposeRequest{Messages: msgs, MaxTokens: s.answer, ForcedTokens: s.answer})
	req := engine.Request{ID: id, PromptTokens: prompt, OutputTokens: ans.Tokens, MaxTokens: len(ans.Tokens)}

	le, err := l.Engines.For(ctx).Get(s.tier.Profile)
	if err != nil {
		return fmt.Errorf("stack: engine for %s: %w", s.tier.Name, err)
	}
	aloneTTFT, aloneE2E, aloneOK := labs.Alone(le.Config(), req)
	v := newView(s, ans.Text, aloneE2E, aloneOK)
	a := answer{id: id, model: s.tier.Profile.Model, prompt: len(prompt)}

	t0 := l.Clock.Now()
	events, err := le.Submit(ctx, req)
	if err != nil {
		return labs.SubmitRefused("stack", err, "Not run.", emit)
	}
	emit(v.live(a, 0))
	tk := l.Ticker()
	defer tk.Stop()
	var delivery labs.Delivery
	text := labs.NewAnswerText(ans.Pieces, ans.Tokens)
	var shown time.Duration // GPU time of the last live frame
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tk.C:
			emit(v.live(a, l.Clock.Now().Sub(t0)))
		case ev, ok := <-events:
			if !ok { // the engine closes the stream without a final event on cancel
				return ctx.Err()
			}
			delivery.Observe(ev.GPU, l.Clock.Now().Sub(t0))
			if !ev.Done {
				a.tokens = append(a.tokens, token{at: ev.GPU, text: text.Piece(ev)})
				a.thought, a.server = text.Thought, text.Server
				// A frame per token would redo the browser's reading
				// hundreds of times; the page cannot show more than
				// a few dozen a second anyway.
				if len(a.tokens) == 1 || ev.GPU-shown >= frameEvery {
					shown = ev.GPU
					emit(v.live(a, ev.GPU))
				}
				continue
			}
			if ev.Err != nil {
				return fmt.Errorf("stack: request %s: %w", id, ev.Err)
			}
			a.done, a.end = true, ev.GPU
			notes := []string{labs.ThinkingNote(text.Thought, len(a.tokens), len(a.tokens) > text.Thought), delivery.BusyNote()}
			if aloneOK && len(a.tokens) > 0 {
				notes = append(notes, labs.SharingNote(ev.Sharing, a.tokens[0].at-aloneTTFT, a.end-aloneE2E))
			}
			f, err := v.final(a, notes)
			if err != nil {
				return err
			}
			emit(f)
			return nil
		}
	}
}

// hops is one answer pushed through every hop, as known at some moment
// (the whole answer once it is done).
type hops struct {
	provider, gateway, proxied []chunk
	direct, browser            []arrival // without the proxy, and through it
}

// through brings the wire up to date with a and pushes its writes through
// the proxy of s, as known at time now, to the browser.
func through(s settings, w *wire, a answer, now time.Duration) (hops, error) {
	if err := w.add(a); err != nil {
		return hops{}, err
	}
	h := hops{provider: w.provider, gateway: w.gateway}
	h.proxied = s.proxy.pass(w.gateway, a.done, now)
	var err error
	if h.direct, err = browser(w.gateway); err != nil {
		return hops{}, err
	}
	if h.browser, err = browser(h.proxied); err != nil {
		return hops{}, err
	}
	return h, nil
}

// maker names what wrote the answer, to start a sentence: the modelled
// GPU, or the server that timed it.
func (a answer) maker() string {
	if a.server != "" {
		return "That server"
	}
	return "The GPU"
}

// whose is maker as a possessive inside a sentence: "the GPU's".
func (a answer) whose() string {
	if a.server != "" {
		return "that server's"
	}
	return "the GPU's"
}

// firstAnswer is when the first answer token came, after any thinking;
// 0 before it.
func (a answer) firstAnswer() time.Duration {
	if len(a.tokens) <= a.thought {
		return 0
	}
	return a.tokens[a.thought].at
}

// firstToken is when the GPU made the first token, or 0 before it.
func (a answer) firstToken() time.Duration {
	if len(a.tokens) == 0 {
		return 0
	}
	return a.tokens[0].at
}
