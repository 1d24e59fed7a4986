package web

import (
	"context"
	"encoding/json"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
)

// The first six of the fake's thoughts, and the words its answer starts
// with.
const (
	fakeThought      = "the customer asks about a refund"
	fakeAnswerPrefix = "the first token waits"
)

// A reasoning model behind every server the chat can point at, thinking
// in the server's own field or in a <think> block in the text: the page
// shows the thinking live under "Thinking…", folds it once the answer
// starts and leaves it alone after that, keeps it apart from the answer,
// and the figures count and time it, with the first word after it.
func TestChatShowsThinkingFromEveryServer(t *testing.T) {
	const thoughts, gap = 6, 15 * time.Millisecond
	for _, format := range upstreamtest.Formats {
		for _, inText := range []bool{false, true} {
			name := string(format) + "/own field"
			if inText {
				name = string(format) + "/think block in the text"
			}
			t.Run(name, func(t *testing.T) {
				fake := &upstreamtest.Fake{Format: format, TTFT: 30 * time.Millisecond, Gap: gap,
					Reasoning: thoughts, ThinkInText: inText, NaturalLength: 8}
				prov := pipeline.NewUpstreamProvider(&upstream.Client{BaseURL: "http://fake/v1", HTTP: upstreamtest.InMemory(fake)})
				s, ts := fastChatServer(t, prov)
				c := client(t)
				conv := newConversation(t, c, ts.URL)
				status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take?")
				checkThinkingStream(t, status, body)

				answer := strings.TrimSpace(answerText(body))
				if !strings.HasPrefix(answer, fakeAnswerPrefix) || strings.Contains(answer, "think") || strings.Contains(answer, "customer") {
					t.Errorf("the answer %q is not the answer alone", answer)
				}
				figs, err := s.store.ChatFigures(context.Background(), learnerOf(t, c, ts.URL), conv)
				if err != nil || len(figs) != 1 {
					t.Fatalf("figures %v, err %v", figs, err)
				}
				var f chatFigures
				for _, raw := range figs {
					if err := json.Unmarshal(raw, &f); err != nil {
						t.Fatal(err)
					}
				}
				if f.ThinkingMs == nil || f.FirstTokenMs == nil || f.FirstWordMs == nil {
					t.Fatalf("figures lack thinking, first token or first word: %+v", f)
				}
				// Six thinking tokens a gap apart, then a gap to the answer.
				if f.ThinkingTokens != thoughts || *f.ThinkingMs < float64(thoughts*gap/time.Millisecond) {
					t.Errorf("thinking %v ms over %d tokens; want %d tokens over at least %d ms", *f.ThinkingMs, f.ThinkingTokens, thoughts, thoughts*gap/time.Millisecond)
				}
				// The thinking ends where the first word begins; the first
				// token is timed from the call, which may start later than
				// the request (1 µs of slack for float rounding).
				if *f.FirstWordMs < *f.FirstTokenMs+*f.ThinkingMs-0.001 {
					t.Errorf("first word %v ms comes before first token %v ms plus thinking %v ms", *f.FirstWordMs, *f.FirstTokenMs, *f.ThinkingMs)
				}
				if strings.TrimSpace(f.Reasoning) != fakeThought || f.ThinkingHidden {
					t.Errorf("saved thinking %q (hidden %v), want %q", f.Reasoning, f.ThinkingHidden, fakeThought)
				}
			})
		}
	}
}

// checkThinkingStream checks the patches of a thinking answer: the
// thinking shows open first, then folded under its summary, after which
// only the answer's body is patched, and the saved conversation keeps
// the folded thinking and the sentence that explains the figures.
func checkThinkingStream(t *testing.T, status int, body string) {
	t.Helper()
	_, _ = chatShape(t, status, body)
	var active, folded, later, livePatchesAfter int
	var saved string
	for _, e := range parseWire(t, body) {
		sel, frag := e.value("selector"), html.UnescapeString(e.value("fragments"))
		switch {
		case sel == "#chat-live" && strings.Contains(frag, "msg-think-active"):
			active++
			_, answer, _ := strings.Cut(frag, `id="chat-live-a"`)
			if !strings.Contains(answer, "Thinking…") || strings.Contains(answer, `class="msg-text"`) {
				t.Errorf("a thinking patch without its label, or with answer text: %s", frag)
			}
		case sel == "#chat-live" && strings.Contains(frag, `<details class="msg-think" id="chat-live-a-think">`):
			folded++
		case sel == "#chat-live" && folded > 0 && strings.Contains(frag, "chat-live-a"):
			livePatchesAfter++
		case sel == "#chat-live-a-body":
			later++
			if strings.Contains(frag, "msg-think") {
				t.Errorf("a body patch carries the thinking: %s", frag)
			}
		case sel == "#chat-log":
			saved = frag
		}
	}
	if active == 0 || folded != 1 || livePatchesAfter != 0 {
		t.Errorf("%d open thinking patches, %d folding ones, %d whole-turn patches after folding; want some, 1, 0", active, folded, livePatchesAfter)
	}
	if !strings.Contains(saved, `<details class="msg-think" id="msg-2-think"><summary>Thought for `) || !strings.Contains(saved, fakeThought) {
		t.Errorf("the saved conversation lacks the folded thinking:\n%s", saved)
	}
	for _, want := range []string{`data-fig="thinking"`, "6 tokens", "This model thinks before it answers"} {
		if !strings.Contains(saved, want) {
			t.Errorf("the saved figures lack %q", want)
		}
	}
}

// With an output check on the tier, the thinking is counted and timed
// but its text never reaches the page, and the page says why.
func TestChatHidesThinkingWhenOutputIsChecked(t *testing.T) {
	fake := &upstreamtest.Fake{Format: upstreamtest.VLLM, TTFT: 20 * time.Millisecond, Gap: 10 * time.Millisecond, Reasoning: 4, NaturalLength: 5}
	prov := outputChecked{pipeline.NewUpstreamProvider(&upstream.Client{BaseURL: "http://fake/v1", HTTP: upstreamtest.InMemory(fake)})}
	_, ts := fastChatServer(t, prov)
	c := client(t)
	_, body := chatSend(t, c, ts.URL, newConversation(t, c, ts.URL), "How long do refunds take?")
	page := html.UnescapeString(body)
	if strings.Contains(page, "customer asks") {
		t.Error("the thinking text reached the page though the output is checked")
	}
	if !strings.Contains(page, "Thought for ") || !strings.Contains(page, thinkingWithheld) || !strings.Contains(page, "4 tokens") {
		t.Errorf("the page does not say the thinking was withheld:\n%s", page)
	}
}

// outputChecked declares an output check, as a moderation wrapper does.
type outputChecked struct{ pipeline.Provider }

func (outputChecked) ChecksOutput() bool { return true }

// thinkingProvider makes a reasoning model of another provider: it
// thinks its thoughts, Gap apart on the wall clock (so a browser sees
// them arrive), then streams the inner answer, whose modelled times
// move back by the thinking.
type thinkingProvider struct {
	Inner    pipeline.Provider
	Thoughts []string
	Gap      time.Duration
}

func (p thinkingProvider) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	inner, err := p.Inner.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	return &thinkingStream{ctx: ctx, inner: inner, p: p}, nil
}

type thinkingStream struct {
	ctx   context.Context
	inner pipeline.Stream
	p     thinkingProvider
	n     int
}

func (s *thinkingStream) Recv() (pipeline.StreamEvent, error) {
	thought := time.Duration(len(s.p.Thoughts)) * s.p.Gap
	if s.n < len(s.p.Thoughts) {
		if err := clock.Sleep(s.ctx, clock.Wall{}, s.p.Gap); err != nil {
			return pipeline.StreamEvent{}, err
		}
		s.n++
		since := time.Duration(s.n) * s.p.Gap
		return pipeline.StreamEvent{Reasoning: s.p.Thoughts[s.n-1], Tokens: 1, At: time.Now(), Since: since}, nil
	}
	ev, err := s.inner.Recv()
	if ev.Since > 0 {
		ev.Since += thought
	}
	return ev, err
}

func (s *thinkingStream) Close() error { return s.inner.Close() }
