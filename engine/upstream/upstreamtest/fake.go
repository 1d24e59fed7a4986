package upstreamtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// Format names a real server whose streaming wire format Fake writes.
type Format string

// The four servers the labs and bench are checked against.
const (
	VLLM     Format = "vllm"
	SGLang   Format = "sglang"
	Ollama   Format = "ollama"
	LlamaCpp Format = "llamacpp"
)

// Formats lists every Format.
var Formats = []Format{VLLM, SGLang, Ollama, LlamaCpp}

// HonoursIgnoreEOS says whether the server reads ignore_eos: Ollama's
// OpenAI layer has no such field (openai/openai.go), so its answers end
// when the model writes its end-of-answer token.
func (f Format) HonoursIgnoreEOS() bool { return f != Ollama }

// HonoursRunningCounts says whether the server puts its running token
// count on every chunk when asked with stream_options.continuous_usage_stats.
func (f Format) HonoursRunningCounts() bool { return f == VLLM || f == SGLang }

// Fake answers /v1/models, /v1/chat/completions and /v1/completions the way
// Format's server does, on a fixed schedule: the first token TTFT after the
// request, every later one Gap after the one before, on Clock. What it
// writes follows each server's source (see fake_wire.go); the words are
// its own.
type Fake struct {
	Format Format
	// Clock times the answer; nil means the wall clock.
	Clock     clock.Clock
	TTFT, Gap time.Duration
	// Model is what /v1/models lists; a request naming another model is
	// refused as the server refuses it (llama.cpp serves whatever is asked).
	Model string
	// ContextTokens refuses prompts of more words than this, as the server
	// refuses a prompt longer than its context (0: no limit).
	ContextTokens int
	// StreamInterval merges this many tokens into one chunk, as a vLLM or
	// SGLang chunk carries every token produced since the last one (0 or
	// 1: a chunk per token).
	StreamInterval int
	// NaturalLength is where the model would stop by itself: requests
	// that do not ask for ignore_eos, and every request to Ollama, end
	// there with finish_reason "stop" (0: never).
	NaturalLength int
	// NoUsage leaves usage out even when the request asks for it, as a
	// server started without it or an older release does.
	NoUsage bool
	// FailAfter writes the server's own mid-stream error after this many
	// tokens; CloseAfter drops the connection after this many, with no
	// error and no [DONE] (0: never).
	FailAfter, CloseAfter int
	// CRLF ends every line with CRLF; KeepAlive writes an SSE comment
	// before every chunk, as llama.cpp's ping does on a quiet stream.
	CRLF, KeepAlive bool
	// Reasoning makes a reasoning model of it: it thinks for this many
	// tokens, one chunk each, before its answer. The thinking counts
	// against max_tokens and in the usage, and goes in the Format's own
	// delta field (see fake_wire.go) — or, with ThinkInText and on
	// /v1/completions, inside the answer text as a leading
	// <think>…</think> block, as a server without a reasoning parser
	// streams it.
	Reasoning   int
	ThinkInText bool
}

// fakeRequest is what Fake reads of a request.
type fakeRequest struct {
	Model         string          `json:"model"`
	Prompt        string          `json:"prompt"`
	Messages      []Message       `json:"messages"`
	MaxTokens     int             `json:"max_tokens"`
	IgnoreEOS     bool            `json:"ignore_eos"`
	Stream        bool            `json:"stream"`
	StreamOptions json.RawMessage `json:"stream_options"`
}

// Message is one chat turn of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func (q fakeRequest) promptWords() int {
	n := len(strings.Fields(q.Prompt))
	for _, m := range q.Messages {
		n += len(strings.Fields(m.Content))
	}
	return n
}

// ServeHTTP implements http.Handler.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodGet && path == "/v1/models":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(f.models())
		return
	case r.Method != http.MethodPost || (path != "/v1/chat/completions" && path != "/v1/completions"):
		f.refuse(w, http.StatusNotFound, "Not Found")
		return
	}
	var q fakeRequest
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil || !q.Stream || q.MaxTokens <= 0 {
		f.refuse(w, http.StatusBadRequest, "this fake only streams, with max_tokens set")
		return
	}
	if f.Model != "" && q.Model != f.Model && f.Format != LlamaCpp {
		f.refuse(w, http.StatusNotFound, f.modelNotFound(q.Model))
		return
	}
	if f.ContextTokens > 0 && q.promptWords() > f.ContextTokens {
		f.refuse(w, http.StatusBadRequest, f.contextTooLong(q.promptWords()))
		return
	}
	f.play(w, r, q, path == "/v1/chat/completions")
}

// answerLength is how many tokens the answer gets and why it ends.
func (f *Fake) answerLength(q fakeRequest) (int, string) {
	natural := f.NaturalLength > 0 && (!q.IgnoreEOS || !f.HonoursIgnoreEOS())
	if natural && f.NaturalLength < q.MaxTokens {
		return f.NaturalLength, "stop"
	}
	return q.MaxTokens, "length"
}

// HonoursIgnoreEOS is the Format's.
func (f *Fake) HonoursIgnoreEOS() bool { return f.Format.HonoursIgnoreEOS() }

// play streams the answer; the client leaving ends it.
func (f *Fake) play(w http.ResponseWriter, r *http.Request, q fakeRequest, chat bool) {
	var opts struct {
		IncludeUsage bool `json:"include_usage"`
		Continuous   bool `json:"continuous_usage_stats"`
	}
	_ = json.Unmarshal(q.StreamOptions, &opts)
	think := min(f.Reasoning, q.MaxTokens)
	tokens, finish := f.answerLength(q)
	if think+tokens > q.MaxTokens {
		tokens, finish = q.MaxTokens-think, "length"
	}
	wr := &wire{f: f, w: w, chat: chat, model: q.Model, prompt: q.promptWords(),
		usage: opts.IncludeUsage && !f.NoUsage, running: opts.Continuous && opts.IncludeUsage && f.Format.HonoursRunningCounts(),
		thinkInText: f.ThinkInText || !chat}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	clk := clock.Or(f.Clock)
	wait := func(k int) bool {
		d := f.Gap
		if k == 0 {
			d = f.TTFT
		}
		return clock.Sleep(r.Context(), clk, d) == nil
	}
	for k := range think {
		if !wait(k) {
			return
		}
		end := ""
		if k+1 == think && tokens == 0 {
			end = finish // thinking cut off by max_tokens
		}
		wr.think(k, think, end)
	}
	interval := max(1, f.StreamInterval)
	var pending []string
	for k := range tokens {
		if !wait(think + k) {
			return
		}
		pending = append(pending, " "+words[k%len(words)])
		made := think + k + 1
		if made == f.CloseAfter {
			wr.step(pending, made, "")
			return
		}
		if made == f.FailAfter {
			wr.step(pending, made, "")
			wr.failMidStream()
			return
		}
		if len(pending) < interval && k+1 < tokens {
			continue
		}
		end := ""
		if k+1 == tokens {
			end = finish
		}
		wr.step(pending, made, end)
		pending = pending[:0]
	}
	wr.finish(think+tokens, finish)
}

// refuse writes the Format's error body.
func (f *Fake) refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(f.errorBody(status, msg))
}

func (f *Fake) modelNotFound(model string) string {
	switch f.Format {
	case VLLM:
		return fmt.Sprintf("The model `%s` does not exist.", model)
	case Ollama:
		return fmt.Sprintf("model '%s' not found", model)
	}
	return fmt.Sprintf("The model %s is not served here.", model)
}

func (f *Fake) contextTooLong(n int) string {
	switch f.Format {
	case LlamaCpp:
		return fmt.Sprintf("request (%d tokens) exceeds the available context size (%d tokens), try increasing it", n, f.ContextTokens)
	case Ollama:
		return "the input length exceeds the context length"
	}
	return fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens in the messages.", f.ContextTokens, n)
}
