package web

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// fuzzSeeds are the line-break variants, the XSS payloads and a few odd
// strings: the corpus `go test` runs for both fuzz targets.
func fuzzSeeds() []string {
	seeds := []string{"", " ", "\r", "\n", "\r\n", "\n\r", "\r\r\n\n", "data: x", "event: y", ":comment", "\xff\xfe", "a\x00\r\x00b", "\u2028\u2029", "\uFEFFhi"}
	for _, v := range lineBreakVariants {
		seeds = append(seeds, v)
	}
	return append(seeds, xssPayloads...)
}

// FuzzSSEMerge: whatever text goes into a selector, a fragment or signals,
// the adapter writes exactly one event per call, every line of it an event
// line or a data line with a known key, and the client reads the text
// back as sent (line ends as LF).
func FuzzSSEMerge(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sigs, err := json.Marshal(map[string]string{"v": s})
		if err != nil {
			t.Skip("not encodable as JSON")
		}
		body := recordStream(t, func(st *stream) error {
			if err := st.mergeHTML("#x"+s, "<p>"+s+"</p>"); err != nil {
				return err
			}
			return st.mergeSignals(string(sigs))
		})
		events := parseWire(t, body)
		if len(events) != 2 {
			t.Fatalf("%d events for 2 calls:\n%q", len(events), body)
		}
		if got, want := events[0].value("fragments"), strings.TrimSpace(normalizeLineEnds("<p>"+s+"</p>")); got != want {
			t.Errorf("fragments read back as %q, want %q", got, want)
		}
		if got := events[0].value("selector"); strings.ContainsAny(got, "\r\n\x00") {
			t.Errorf("selector %q keeps a line end or NUL", got)
		}
		var sent, back map[string]string
		_ = json.Unmarshal(sigs, &sent) // encoding/json has already made invalid UTF-8 valid
		if err := json.Unmarshal([]byte(events[1].value("signals")), &back); err != nil || back["v"] != sent["v"] {
			t.Errorf("signals read back as %q (%v), want %q", events[1].value("signals"), err, sigs)
		}
	})
}

// FuzzChatInput sends any text as a chat message, both as the page encodes
// it and spliced raw into the JSON body. The answer is a stream (2xx) or a
// refusal with a reason (4xx), never a 5xx; and the stream holds at most
// one signals event and patches only the chat's own elements.
func FuzzChatInput(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Add(`", "chatConv": "nope`, true)
	f.Add(strings.Repeat("x", chatMaxChars+1), false)
	ts := chatFuzzServer(f)
	f.Fuzz(func(t *testing.T, msg string, raw bool) {
		c := client(t)
		get(t, c, ts.URL+"/chat")
		body := []byte(`{"chatInput":"` + msg + `","chatConv":""}`)
		if !raw {
			body, _ = json.Marshal(map[string]string{"chatInput": msg, "chatConv": ""})
		}
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/chat/send", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Datastar-Request", "true")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			// Every input would then be a refusal and the chat path untested.
			t.Fatalf("the fuzz server hit a rate limit: raise the limits in chatFuzzServer")
		}
		if resp.StatusCode >= 500 || resp.StatusCode < 200 || resp.StatusCode/100 == 3 {
			t.Fatalf("status %d for %q: %s", resp.StatusCode, msg, out)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			t.Fatalf("content type %q for %q", ct, msg)
		}
		var signals int
		var reason string
		for _, e := range parseWire(t, string(out)) {
			if e.Type == "datastar-merge-signals" {
				signals++
				continue
			}
			sel := e.value("selector")
			if !chatSelectors[sel] {
				t.Errorf("a fragment event patches %q", sel)
			}
			if sel == "#chat-error" {
				reason += strings.TrimSpace(stripTags(e.value("fragments")))
			}
		}
		if signals > 1 {
			t.Errorf("%d signals events for %q", signals, msg)
		}
		if resp.StatusCode >= 400 && reason == "" {
			t.Errorf("status %d for %q without a reason in the page", resp.StatusCode, msg)
		}
	})
}

// chatFuzzServer is fastChatServer built once for a whole fuzz run (the
// test helpers take a *testing.T, which a fuzz target has only per input).
// Its model answers "Refunds take five days." with a CR pair inside.
func chatFuzzServer(f *testing.F) *httptest.Server {
	f.Helper()
	provider := scriptedProvider{deltas: []string{"Refunds take\r", "\nfive days.\r"}}
	p := pipeline.DefaultConfig()
	p.Guard.Latency, p.Gateway.Overhead = pipeline.Latency{}, pipeline.Latency{}
	p.Context.HistoryLatency, p.Context.RetrievalLatency, p.Context.OrderLatency = pipeline.Latency{}, pipeline.Latency{}, pipeline.Latency{}
	p.Gateway.Cache = false
	s, err := New(Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(f.TempDir(), "fuzz.db"),
		Lessons: newFakeLessons(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		RatePerSecond: 1e6, RateBurst: 1e6,
		Limits: Limits{AddrRatePerSecond: 1e6, AddrRateBurst: 1e6},
		Chat: &ChatBackend{Label: "scripted", Pipeline: &p,
			Tiers: []pipeline.Tier{{Name: "medium", Model: "m", Provider: provider}, {Name: "small", Model: "s", Provider: provider}}}})
	if err != nil {
		f.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	f.Cleanup(func() { ts.Close(); s.Close() })
	return ts
}

// stripTags drops markup, leaving the text a learner would read.
func stripTags(h string) string {
	var b strings.Builder
	in := false
	for _, r := range h {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
