package pipeline

import (
	"reflect"
	"strings"
	"testing"
)

func TestSSEDecoderSplitsEventsWhereverTheBytesBreak(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		want   []SSEEvent
	}{
		{"one event", []string{"data: hi\n\n"}, []SSEEvent{{Data: "hi"}}},
		{"split mid-line", []string{"da", "ta: h", "i\n", "\n"}, []SSEEvent{{Data: "hi"}}},
		{"no blank line yet", []string{"data: hi\n"}, nil},
		{"CRLF split across reads", []string{"data: a\r", "\n\r", "\n"}, []SSEEvent{{Data: "a"}}},
		{"bare CR ends lines", []string{"data: a\r\rdata: b\r\r"}, []SSEEvent{{Data: "a"}, {Data: "b"}}},
		{"several data lines join", []string{"data: a\ndata: b\n\n"}, []SSEEvent{{Data: "a\nb"}}},
		{"one space dropped", []string{"data:  two\ndata:none\n\n"}, []SSEEvent{{Data: " two\nnone"}}},
		{"event and id", []string{"id: 3\nevent: done\ndata: {}\n\n"}, []SSEEvent{{ID: "3", Event: "done", Data: "{}"}}},
		{"id carries over, event does not", []string{"id: 3\nevent: x\ndata: a\n\ndata: b\n\n"},
			[]SSEEvent{{ID: "3", Event: "x", Data: "a"}, {ID: "3", Data: "b"}}},
		{"comments and retry ignored", []string{": keep-alive\nretry: 10\ndata: a\n\n"}, []SSEEvent{{Data: "a"}}},
		{"no data, no event", []string{"event: ping\n\n\n"}, nil},
		{"empty data line dispatches", []string{"data\n\n"}, []SSEEvent{{Data: ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d SSEDecoder
			var got []SSEEvent
			for _, p := range tc.pieces {
				got = append(got, d.Feed([]byte(p))...)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestSSEEncodeCannotStartASecondEvent(t *testing.T) {
	tests := []struct {
		ev   SSEEvent
		want string
	}{
		{SSEEvent{Data: "hi"}, "data: hi\n\n"},
		{SSEEvent{ID: "1", Event: "done", Data: "{}"}, "id: 1\nevent: done\ndata: {}\n\n"},
		{SSEEvent{Data: "a\r\n\r\ndata: evil"}, "data: a\ndata: \ndata: data: evil\n\n"},
		{SSEEvent{Event: "x\n\ndata: evil", Data: "a"}, "event: x  data: evil\ndata: a\n\n"},
	}
	for _, tc := range tests {
		got := string(tc.ev.Encode())
		if got != tc.want {
			t.Errorf("Encode(%+v) = %q, want %q", tc.ev, got, tc.want)
		}
		var d SSEDecoder
		if evs := d.Feed([]byte(got)); len(evs) != 1 {
			t.Errorf("%q decodes to %d events, want 1", got, len(evs))
		}
	}
}

// answerBytes is a whole answer in format f: start, one delta per piece, end.
func answerBytes(f WireFormat, pieces []string) []byte {
	var evs []SSEEvent
	evs = append(evs, f.Start("req-1", "m", 12)...)
	for _, p := range pieces {
		evs = append(evs, f.Delta("req-1", "m", p)...)
	}
	evs = append(evs, f.End("req-1", "m", "stop", Usage{PromptTokens: 12, CompletionTokens: len(pieces)})...)
	var b []byte
	for _, e := range evs {
		b = append(b, e.Encode()...)
	}
	return b
}

// clientText reads the gateway's events as a client: the text and how it ended.
func clientText(t testing.TB, evs []SSEEvent) (text string, done WireChunk) {
	t.Helper()
	var b strings.Builder
	for _, ev := range evs {
		c, ok, err := ReadGatewayEvent(ev)
		if err != nil || !ok {
			t.Fatalf("gateway event %+v: ok %v, %v", ev, ok, err)
		}
		b.WriteString(c.Text)
		if c.Done || c.Err != "" {
			done = c
		}
	}
	return b.String(), done
}

// TestNormaliserGivesOneStreamForEitherProvider: the same answer in either
// provider's format, fed to the gateway a few bytes at a time, comes out
// as the same events: numbered text, then done with the finish reason and
// the output tokens.
func TestNormaliserGivesOneStreamForEitherProvider(t *testing.T) {
	pieces := []string{"Your", " refund", " was", " issued", "\n\n", "Thanks", ` "quoted"`, " ✓"}
	for _, f := range WireFormats() {
		for _, step := range []int{1, 7, 1 << 20} {
			raw := answerBytes(f, pieces)
			n := Normaliser{Format: f}
			var evs []SSEEvent
			for i := 0; i < len(raw); i += step {
				out, err := n.Feed(raw[i:min(i+step, len(raw))])
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				evs = append(evs, out...)
			}
			if len(evs) != len(pieces)+1 {
				t.Fatalf("%s step %d: %d events, want %d", f.Name, step, len(evs), len(pieces)+1)
			}
			text, done := clientText(t, evs)
			if text != strings.Join(pieces, "") {
				t.Errorf("%s: text %q", f.Name, text)
			}
			if !done.Done || done.Finish != "stop" || done.Usage.CompletionTokens != len(pieces) {
				t.Errorf("%s: end %+v", f.Name, done)
			}
			if evs[2].ID != "3" {
				t.Errorf("%s: third event id %q, want 3", f.Name, evs[2].ID)
			}
		}
	}
}

func TestProviderErrorsBecomeAnErrorEvent(t *testing.T) {
	tests := []struct {
		name    string
		f       WireFormat
		raw     string
		wantErr bool // the gateway returns an error (garbled), not just an event
		msg     string
	}{
		{"openai error object", OpenAIFormat, `data: {"error":{"message":"overloaded"}}` + "\n\n", false, "overloaded"},
		{"anthropic error event", AnthropicFormat, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}\n\n", false, "busy"},
		{"openai garbage", OpenAIFormat, "data: {not json\n\n", true, "the model's stream was garbled"},
		{"anthropic name mismatch", AnthropicFormat, "event: ping\ndata: {\"type\":\"message_stop\"}\n\n", true, "the model's stream was garbled"},
		{"openai chunk of nothing", OpenAIFormat, "data: {\"id\":\"x\"}\n\n", true, "the model's stream was garbled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := Normaliser{Format: tc.f}
			evs, err := n.Feed([]byte(tc.raw))
			if (err != nil) != tc.wantErr {
				t.Errorf("err = %v, want error %v", err, tc.wantErr)
			}
			if len(evs) != 1 || evs[0].Event != GatewayError {
				t.Fatalf("events %+v, want one error event", evs)
			}
			c, _, _ := ReadGatewayEvent(evs[0])
			if c.Err != tc.msg {
				t.Errorf("message %q, want %q", c.Err, tc.msg)
			}
			if more, _ := n.Feed(answerBytes(tc.f, []string{"late"})); len(more) != 0 {
				t.Errorf("events after the end: %+v", more)
			}
		})
	}
}

func TestAnthropicSkipsWhatCarriesNoText(t *testing.T) {
	for _, raw := range []string{
		"event: ping\ndata: {\"type\":\"ping\"}\n\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\"}}\n\n",
		"event: brand_new\ndata: {\"type\":\"brand_new\"}\n\n",
	} {
		n := Normaliser{Format: AnthropicFormat}
		if evs, err := n.Feed([]byte(raw)); err != nil || len(evs) != 0 {
			t.Errorf("%q: %+v, %v; want nothing passed on", raw, evs, err)
		}
	}
}

// FuzzNormaliser: whatever bytes a provider sends, in whatever pieces,
// the gateway neither panics nor writes an event a client cannot read,
// and nothing it writes can end a line inside a field.
func FuzzNormaliser(f *testing.F) {
	for _, w := range WireFormats() {
		f.Add(w.Name, answerBytes(w, []string{"a", " b\r\n", "\x00"}), 5)
	}
	f.Add("openai", []byte("data: [DONE]\r\rdata: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n"), 1)
	f.Add("anthropic", []byte("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}\n\n"), 3)
	f.Fuzz(func(t *testing.T, name string, raw []byte, step int) {
		w, err := LookupWireFormat(name)
		if err != nil {
			w = OpenAIFormat
		}
		step = 1 + (step&0x7fffffff)%64
		n := Normaliser{Format: w}
		for i := 0; i < len(raw); i += step {
			evs, _ := n.Feed(raw[i:min(i+step, len(raw))])
			for _, ev := range evs {
				enc := ev.Encode()
				var d SSEDecoder
				back := d.Feed(enc)
				if len(back) != 1 || back[0].Data != ev.Data || back[0].Event != ev.Event {
					t.Fatalf("event %+v encodes as %q, which reads back as %+v", ev, enc, back)
				}
				if _, ok, err := ReadGatewayEvent(back[0]); err != nil || !ok {
					t.Fatalf("a client cannot read %q: %v", enc, err)
				}
			}
		}
	})
}

// FuzzSSEDecoder: the decoder reads any bytes, split anywhere, into the
// same events as read whole.
func FuzzSSEDecoder(f *testing.F) {
	f.Add([]byte("data: a\r\n\r\nid: 1\nevent: x\ndata: b\rdata: c\r\r: note\n"), 3)
	f.Add([]byte("data\n\ndata:\n\n"), 1)
	f.Fuzz(func(t *testing.T, raw []byte, step int) {
		if step <= 0 || step > len(raw) {
			step = 1
		}
		var whole, split SSEDecoder
		want := whole.Feed(raw)
		var got []SSEEvent
		for i := 0; i < len(raw); i += step {
			got = append(got, split.Feed(raw[i:min(i+step, len(raw))])...)
		}
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("split by %d: %+v, whole: %+v", step, got, want)
		}
	})
}
