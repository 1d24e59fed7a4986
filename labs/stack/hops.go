package stack

import (
	"fmt"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// The hops are pure functions of the GPU's token times, so a run's every
// figure is on the modelled clock: the same tokens give the same bytes at
// the same moments, however busy the host that ran the engine was.

// chunk is bytes one hop hands to the next at a moment since the request
// was sent.
type chunk struct {
	at   time.Duration
	data []byte
}

// token is one token the GPU made: when (GPU time since the request
// arrived) and its text.
type token struct {
	at   time.Duration
	text string
}

// answer is what the GPU has made so far: its tokens and, once it is
// complete, when it ended and with what usage.
type answer struct {
	id, model string
	prompt    int
	tokens    []token
	// thought counts the tokens of a reasoning model's thinking, which
	// come first and carry no answer text; server names the server
	// that timed the answer ("" on the bundled engine).
	thought int
	server  string
	done    bool
	end     time.Duration
}

// wire is the provider's and the gateway's writes as the answer grows:
// each call of add encodes only the tokens it has not seen.
type wire struct {
	format   pipeline.WireFormat
	norm     pipeline.Normaliser
	provider []chunk // the provider's writes in its format
	gateway  []chunk // the gateway's writes in the app's own events
	fed      int     // tokens written so far
	ended    bool
}

func newWire(f pipeline.WireFormat) *wire {
	return &wire{format: f, norm: pipeline.Normaliser{Format: f}}
}

// add writes a's new tokens on the provider's side of the wire, one write
// per token as vLLM and the hosted APIs stream them (the opening events go
// with the first), and its closing events once a is complete; the gateway
// reads each write with the normaliser and writes the app's events the
// moment a provider event is complete. Its work takes microseconds, so it
// adds no time here.
func (w *wire) add(a answer) error {
	var evs []pipeline.SSEEvent
	for ; w.fed < len(a.tokens); w.fed++ {
		t := a.tokens[w.fed]
		if w.fed == 0 {
			evs = w.format.Start(a.id, a.model, a.prompt)
		}
		evs = append(evs, w.format.Delta(a.id, a.model, t.text)...)
		if err := w.write(t.at, evs); err != nil {
			return err
		}
		evs = nil
	}
	if a.done && !w.ended {
		w.ended = true
		u := pipeline.Usage{PromptTokens: a.prompt, CompletionTokens: len(a.tokens)}
		return w.write(a.end, w.format.End(a.id, a.model, "length", u))
	}
	return nil
}

// write is one provider write and what the gateway makes of it.
func (w *wire) write(at time.Duration, evs []pipeline.SSEEvent) error {
	c := chunk{at: at, data: encode(evs)}
	w.provider = append(w.provider, c)
	out, err := w.norm.Feed(c.data)
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	if len(out) > 0 {
		w.gateway = append(w.gateway, chunk{at: at, data: encode(out)})
	}
	return nil
}

// proxy is the reverse proxy between the app and the browser. When it
// buffers, it collects the response and passes bytes on only when its
// buffer is full (a buffer's worth at a time, cutting events wherever the
// boundary falls), when its flush timer fires (every flush since the
// response began; 0: no timer) or when the response ends. Off, or with
// buffering off (as the X-Accel-Buffering: no header asks of nginx), it
// passes every write straight on.
type proxy struct {
	on, buffering bool
	size          int
	flush         time.Duration
}

// buffers says whether the proxy holds bytes back at all.
func (p proxy) buffers() bool { return p.on && p.buffering }

// pass is what the proxy hands the browser of the writes in, as known at
// time now: ended says the response is complete (its last write is the
// end), otherwise bytes still buffered stay there unless the timer fires
// by now.
func (p proxy) pass(in []chunk, ended bool, now time.Duration) []chunk {
	if !p.buffers() || len(in) == 0 {
		return in
	}
	var out []chunk
	var buf []byte
	var since time.Duration // when the oldest buffered byte came in
	start := in[0].at
	flushBy := func(t time.Duration) {
		if p.flush <= 0 || len(buf) == 0 {
			return
		}
		tick := start + (((since-start)/p.flush)+1)*p.flush
		if tick <= t {
			out = append(out, chunk{at: tick, data: buf})
			buf = nil
		}
	}
	for _, c := range in {
		flushBy(c.at)
		if len(buf) == 0 {
			since = c.at
		}
		buf = append(buf, c.data...)
		if full := len(buf) / p.size * p.size; full > 0 {
			out = append(out, chunk{at: c.at, data: buf[:full:full]})
			buf, since = buf[full:], c.at
		}
	}
	if ended {
		if len(buf) > 0 {
			out = append(out, chunk{at: in[len(in)-1].at, data: buf})
		}
		return out
	}
	flushBy(now)
	return out
}

// arrival is one network read at the browser: when, how many bytes, the
// events it completed and the text they added.
type arrival struct {
	at     time.Duration
	data   []byte
	events int
	text   string
}

// browser reads the proxy's writes as the page's stream reader does: an
// event counts only once its blank line has arrived, however the bytes
// were cut.
func browser(in []chunk) ([]arrival, error) {
	var dec pipeline.SSEDecoder
	out := make([]arrival, 0, len(in))
	for _, c := range in {
		a := arrival{at: c.at, data: c.data}
		var text strings.Builder
		for _, ev := range dec.Feed(c.data) {
			wc, ok, err := pipeline.ReadGatewayEvent(ev)
			if err != nil {
				return nil, fmt.Errorf("browser: %w", err)
			}
			if ok {
				a.events++
				text.WriteString(wc.Text)
			}
		}
		a.text = text.String()
		out = append(out, a)
	}
	return out, nil
}

// encode writes events as the bytes of one write.
func encode(evs []pipeline.SSEEvent) []byte {
	var b []byte
	for _, e := range evs {
		b = append(b, e.Encode()...)
	}
	return b
}
