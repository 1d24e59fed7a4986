package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/labs"
)

// Issue 9, item 1: text from a learner, a stored conversation, a lab or a
// model must never start a line of an SSE event. Each test sends every
// line-break variant through one streamed place and checks, with a
// browser-like parser (parseWire), that the stream has exactly the events
// a clean text gives and that the text arrives inside them.

// injectedWords is what every non-clean variant carries; it must show up
// as text inside a fragment, never as a line of its own.
const injectedWords = "event: datastar-merge-signals"

// scriptedProvider answers every request at once with its thoughts (a
// reasoning model's thinking) and then its deltas: a model whose words the
// test chooses, with no transport in between.
type scriptedProvider struct{ thoughts, deltas []string }

func (p scriptedProvider) Stream(ctx context.Context, _ pipeline.ProviderRequest) (pipeline.Stream, error) {
	return &scriptedStream{ctx: ctx, thoughts: p.thoughts, deltas: p.deltas}, nil
}

type scriptedStream struct {
	ctx              context.Context
	thoughts, deltas []string
	done             bool
}

func (s *scriptedStream) Recv() (pipeline.StreamEvent, error) {
	if err := s.ctx.Err(); err != nil {
		return pipeline.StreamEvent{}, err
	}
	switch {
	case len(s.thoughts) > 0:
		r := s.thoughts[0]
		s.thoughts = s.thoughts[1:]
		return pipeline.StreamEvent{Reasoning: r, Tokens: 1, At: time.Now()}, nil
	case len(s.deltas) > 0:
		d := s.deltas[0]
		s.deltas = s.deltas[1:]
		return pipeline.StreamEvent{Text: d, Tokens: 1, At: time.Now()}, nil
	case !s.done:
		s.done = true
		return pipeline.StreamEvent{Done: true, FinishReason: "stop", Usage: pipeline.Usage{PromptTokens: 10, CompletionTokens: 3}}, nil
	}
	return pipeline.StreamEvent{}, io.EOF
}

func (s *scriptedStream) Close() error { return nil }

// pieces cuts text into chunks of n bytes, so CRLF pairs and payload lines
// straddle chunk borders as they can in a real stream.
func pieces(text string, n int) []string {
	var out []string
	for len(text) > n {
		out = append(out, text[:n])
		text = text[n:]
	}
	return append(out, text)
}

// fastChatServer is a chat server whose pipeline stages take no modelled
// time and whose medium and small tiers are provider, with limits high
// enough for table tests.
func fastChatServer(t *testing.T, provider pipeline.Provider) (*testServer, *httptest.Server) {
	t.Helper()
	tiers := []pipeline.Tier{{Name: "medium", Model: "m", Provider: provider}, {Name: "small", Model: "s", Provider: provider}}
	return newChatServer(t, tiers, func(c *Config) {
		p := pipeline.DefaultConfig()
		p.Guard.Latency, p.Gateway.Overhead = pipeline.Latency{}, pipeline.Latency{}
		p.Context.HistoryLatency, p.Context.RetrievalLatency, p.Context.OrderLatency = pipeline.Latency{}, pipeline.Latency{}, pipeline.Latency{}
		p.Gateway.Cache = false
		p.Gateway.MaxTokens = 40 // upstreamtest.Fake, like some servers, wants a cap
		c.Chat.Pipeline = &p
		c.RatePerSecond, c.RateBurst = 1000, 1000
	})
}

// chatSelectors are the elements a chat stream may patch.
var chatSelectors = map[string]bool{"#chat-error": true, "#chat-live": true, "#chat-live-a-body": true, "#chat-log": true, "#chat-convs": true}

// chatShape checks a chat stream's framing and returns its shape: how many
// signals events and how many fragment events other than the live turn
// (whose count depends on timing). It also returns all fragment text.
func chatShape(t *testing.T, status int, body string) (shape string, html string) {
	t.Helper()
	if status != http.StatusOK {
		t.Fatalf("status %d, body %q", status, body)
	}
	var signals, fixed int
	var b strings.Builder
	for _, e := range parseWire(t, body) {
		switch e.Type {
		case "datastar-merge-signals":
			signals++
		case "datastar-merge-fragments":
			sel := e.value("selector")
			if !chatSelectors[sel] {
				t.Errorf("a fragment event patches %q", sel)
			}
			if sel != "#chat-live" && sel != "#chat-live-a-body" { // live patches come as often as timing allows
				fixed++
			}
			b.WriteString(e.value("fragments"))
		}
	}
	return fmt.Sprintf("%d signals, %d fixed patches", signals, fixed), b.String()
}

func TestInjectionThroughChatQuestion(t *testing.T) {
	_, ts := fastChatServer(t, scriptedProvider{deltas: []string{"Refunds take ", "five days."}})
	c := client(t)
	checkVariants(t, func(t *testing.T, text string) (string, string) {
		conv := newConversation(t, c, ts.URL)
		status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take? "+text)
		return chatShape(t, status, body)
	})
}

func TestInjectionThroughChatAnswer(t *testing.T) {
	checkVariants(t, func(t *testing.T, text string) (string, string) {
		_, ts := fastChatServer(t, scriptedProvider{deltas: pieces("Refunds take five days. "+text, 3)})
		c := client(t)
		conv := newConversation(t, c, ts.URL)
		status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take?")
		return chatShape(t, status, body)
	})
}

// A reasoning model's thinking is model text too: it streams live, folds,
// and is replayed from the saved figures, all through the same framing.
func TestInjectionThroughChatThinking(t *testing.T) {
	checkVariants(t, func(t *testing.T, text string) (string, string) {
		_, ts := fastChatServer(t, scriptedProvider{thoughts: pieces("The customer wants a refund. "+text, 3), deltas: []string{"Refunds take ", "five days."}})
		c := client(t)
		conv := newConversation(t, c, ts.URL)
		status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take?")
		shape, html := chatShape(t, status, body)
		if !strings.Contains(html, `<details class="msg-think" id="msg-2-think">`) {
			t.Errorf("the saved answer lost its thinking")
		}
		return shape, html
	})
}

// TestInjectionThroughConversationReplay stores hostile messages straight
// into SQLite (as an older version, or an import, could have) and checks
// the stream that replays the conversation after the next answer.
func TestInjectionThroughConversationReplay(t *testing.T) {
	s, ts := fastChatServer(t, scriptedProvider{deltas: []string{"Refunds take ", "five days."}})
	c := client(t)
	checkVariants(t, func(t *testing.T, text string) (string, string) {
		conv := newConversation(t, c, ts.URL)
		for _, role := range []string{"user", "assistant"} {
			if err := s.store.SaveMessage(context.Background(), pipeline.SavedMessage{ConversationID: conv, Role: role,
				Content: role + " said " + text}); err != nil {
				t.Fatal(err)
			}
		}
		status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take?")
		shape, html := chatShape(t, status, body)
		if !strings.Contains(html, "assistant said") {
			t.Errorf("the stored messages are missing from the replay")
		}
		return shape, html
	})
}

// checkVariants runs one streamed place with the clean text, then with
// every other line-break variant: each must give a stream of the same
// shape, with the injection's words inside a fragment as text.
func checkVariants(t *testing.T, run func(t *testing.T, text string) (shape, html string)) {
	t.Helper()
	clean, _ := run(t, lineBreakVariants["clean"])
	for name, text := range lineBreakVariants {
		if name == "clean" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			shape, html := run(t, text)
			if shape != clean {
				t.Errorf("stream shape %q, clean text gives %q", shape, clean)
			}
			if !strings.Contains(html, injectedWords) {
				t.Errorf("the text is missing from the fragments")
			}
		})
	}
}

// fakeOpenAI is an OpenAI-compatible server whose chat completion streams
// deltas, each in its own chunk.
func fakeOpenAI(t *testing.T, deltas []string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i, d := range deltas {
			delta := map[string]string{"content": d}
			if i == 0 {
				delta["role"] = "assistant"
			}
			b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		fmt.Fprint(w, "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestInjectionThroughUpstreamAnswer(t *testing.T) {
	checkVariants(t, func(t *testing.T, text string) (string, string) {
		up := fakeOpenAI(t, pieces("Refunds take five days. "+text, 4))
		s, ts := fastChatServer(t, pipeline.NewUpstreamProvider(&upstream.Client{BaseURL: up.URL + "/v1", HTTP: &http.Client{}}))
		c := client(t)
		conv := newConversation(t, c, ts.URL)
		status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take?")
		if saved := waitForAnswer(t, s.store, learnerOf(t, c, ts.URL), conv); strings.Contains(saved.Content, "\r") {
			t.Errorf("the saved answer keeps a CR: %q", saved.Content)
		}
		return chatShape(t, status, body)
	})
}

// hostileFrame puts text into every place a frame has text: status,
// error, stat labels and notes, the text panel, a chart's labels and a
// table.
func hostileFrame(x string) labs.Frame {
	return labs.Frame{Final: true, Status: "status " + x, Error: "error " + x,
		Stats: []labs.Stat{{Key: "first", Label: "label " + x, Value: 1, Unit: "ms", Note: "note " + x}},
		Text:  &labs.TextPanel{Title: "title " + x, Body: "body " + x, Marks: []labs.Mark{{Label: "mark " + x, At: 1}}},
		Charts: []labs.Chart{{ID: "c", Title: "chart " + x, Kind: labs.ChartLine, XLabel: "x " + x, YLabel: "y " + x,
			Series: []labs.Series{{Name: "series " + x, Points: []labs.Point{{X: 0, Y: 0}, {X: 1, Y: 1}}}}}},
		Tables: []labs.Table{{Title: "table " + x, Columns: []string{"col " + x}, Rows: [][]string{{"cell " + x}}}},
	}
}

// hostileParams is a lab without knobs.
type hostileParams struct{}

// Check has nothing to cross-check.
func (hostileParams) Check() []labs.FieldError { return nil }

// hostileLab is a lab without knobs whose one frame is hostileFrame, so
// every text a frame carries goes through the lab stream.
func hostileLab(t *testing.T, text string) labs.Lab {
	t.Helper()
	lab, err := labs.Define(labs.Spec[hostileParams]{
		Info: labs.Info{Slug: "hostile", Title: "Hostile lab"},
		Run: func(_ context.Context, _ hostileParams, emit func(labs.Frame)) error {
			emit(hostileFrame(text))
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return lab
}

func TestInjectionThroughLabFrames(t *testing.T) {
	checkVariants(t, func(t *testing.T, text string) (string, string) {
		s := newTestServer(t, func(c *Config) {
			cat, err := labs.NewCatalog(hostileLab(t, text))
			if err != nil {
				t.Fatal(err)
			}
			c.Catalog = cat
		})
		ts := startHTTP(t, s)
		c := client(t)
		get(t, c, ts.URL+"/labs/hostile")
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/labs/hostile/run", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Datastar-Request", "true")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %q", resp.StatusCode, body)
		}
		events := parseWire(t, string(body))
		var html strings.Builder
		for _, e := range events {
			if e.Type != "datastar-merge-fragments" || !strings.HasPrefix(e.value("selector"), "#lab-hostile") {
				t.Errorf("event %q patches %q", e.Type, e.value("selector"))
			}
			html.WriteString(e.value("fragments"))
		}
		first := normalizeLineEnds(text)[:1] // what follows each place's word on the wire
		for _, place := range []string{"status ", "error ", "label ", "body ", "chart ", "cell "} {
			if !strings.Contains(html.String(), place+first) {
				t.Errorf("the frame's %q text is missing from the fragments", place)
			}
		}
		return fmt.Sprintf("%d events", len(events)), html.String()
	})
}

// xssPayloads are 30 classic script-injection strings: tags, event
// handlers, javascript: URLs, parser confusions and Datastar's own
// attributes (which the client would evaluate as expressions).
var xssPayloads = []string{
	`<script>alert(1)</script>`,
	`<img src=x onerror=alert(1)>`,
	`<svg onload=alert(1)>`,
	`"><script>alert(1)</script>`,
	`'><img src=x onerror=alert(1)>`,
	`</div><script>alert(1)</script>`,
	`<iframe src="javascript:alert(1)"></iframe>`,
	`<a href="javascript:alert(1)">x</a>`,
	`<body onload=alert(1)>`,
	`<input autofocus onfocus=alert(1)>`,
	`<details open ontoggle=alert(1)>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
	`<div data-on-load="alert(1)">x</div>`,
	`<div data-signals="{x: alert(1)}"></div>`,
	`<div data-text="$x" data-on-click="document.title='PWN'">x</div>`,
	"${alert(1)} {{ .x }} `x`",
	`<template><script>alert(1)</script></template>`,
	`<style>*{background:url(javascript:alert(1))}</style>`,
	`<object data="data:text/html,<script>alert(1)</script>">`,
	`<embed src="javascript:alert(1)">`,
	`<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
	`<base href="javascript:alert(1)//">`,
	`<form action="javascript:alert(1)"><button>x</button></form>`,
	`&lt;script&gt;alert(1)&lt;/script&gt;`,
	`<scr<script>ipt>alert(1)</scr</script>ipt>`,
	`<!--<img src="--><img src=x onerror=alert(1)//">`,
	`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
	`<svg><animate onbegin=alert(1) attributeName=x dur=1s>`,
	`javascript:alert(document.cookie)`,
	`<img src=x onerror="&#97;lert(1)">`,
}

// TestXSSPayloadsReloadedFromSQLite saves every payload as a question and
// an answer, then reloads the conversation from the database twice: as
// the page and as the stream that replays it after the next answer. Each
// must show every payload as text: escaped, inside its message, and never
// as markup.
func TestXSSPayloadsReloadedFromSQLite(t *testing.T) {
	if len(xssPayloads) != 30 {
		t.Fatalf("%d payloads, want the 30 of the issue", len(xssPayloads))
	}
	s, ts := fastChatServer(t, scriptedProvider{deltas: []string{"Refunds take ", "five days."}})
	c := client(t)
	conv := newConversation(t, c, ts.URL)
	for _, p := range xssPayloads {
		for _, role := range []string{"user", "assistant"} {
			if err := s.store.SaveMessage(context.Background(), pipeline.SavedMessage{ConversationID: conv, Role: role, Content: p}); err != nil {
				t.Fatal(err)
			}
		}
	}
	status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take?")
	_, streamed := chatShape(t, status, body)
	_, page := get(t, c, ts.URL+"/chat/"+conv)
	for name, out := range map[string]string{"replay stream": streamed, "page": page} {
		for i, p := range xssPayloads {
			want := `<div class="msg-text">` + html.EscapeString(p) + `</div>`
			if n := strings.Count(out, want); n != 2 {
				t.Errorf("%s: payload %d (%s) shown as escaped text %d times, want 2 (question and answer)", name, i, p, n)
			}
			if strings.ContainsAny(p, `<>"'`) && strings.Contains(out, p) {
				t.Errorf("%s: payload %d (%s) appears unescaped", name, i, p)
			}
		}
	}
}
