package upstreamtest

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"strings"
)

// The chunk shapes below are written from each server's source, not
// copied from it:
//
//   - vLLM: vllm/entrypoints/openai/chat_completion/serving.py at
//     006c49d485f9ca479bf4989cbb694d0ac02f44b5 (chat_completion_stream_generator):
//     a first chunk with role "assistant" and content "", one chunk per
//     engine output (which may carry several tokens) with the last text
//     and finish_reason together, running usage on every chunk when
//     stream_options.continuous_usage_stats is set, a usage chunk with
//     empty choices when include_usage is set, errors as data: {"error":…}
//     followed by [DONE].
//   - SGLang: python/sglang/srt/entrypoints/openai/serving_chat.py at
//     002897c23becbd522d88b8115a763a21765f978a: the role chunk sent with
//     the first output, content chunks, a separate finish chunk with an
//     empty delta and matched_stop, then the usage chunk; refusals in a
//     flat {"object": "error", …} body (serving_base.py at 012bcb5f).
//   - Ollama: middleware/openai.go and openai/openai.go at
//     fb30760996871fa9460115c753afd2c60d4ab0f7: role and first text in one
//     chunk, system_fingerprint "fp_ollama", a finish chunk with an empty
//     delta, usage only when asked (on /v1/completions an all-zero usage
//     on every chunk until the real one), no ignore_eos; a failure
//     mid-answer leaves an empty chunk and a closed connection.
//   - llama.cpp: tools/server/server-task.cpp at
//     00efb3e184262872916bf136b3df63c1822a19bd and server-context.cpp at
//     001d906a6d86e2490e394361e7cc6f478b100088: a role chunk with content
//     null before the first text, a finish chunk with an empty delta,
//     usage always on the last /v1/completions chunk, "timings" on the
//     last chunk, ":" pings on a quiet stream, errors as data: {"error":…}
//     and then the connection closes.

// wire writes one answer in a Format.
type wire struct {
	f       *Fake
	w       http.ResponseWriter
	chat    bool
	model   string
	prompt  int
	usage   bool // the final usage chunk
	running bool // usage on every chunk
	first   bool // the first chunk has been written
	// thinkInText writes the thinking in the answer text between tags.
	thinkInText bool
}

func (x *wire) usageOf(tokens int) map[string]int {
	return map[string]int{"prompt_tokens": x.prompt, "completion_tokens": tokens, "total_tokens": x.prompt + tokens}
}

// chunk builds one event: a choice (nil for none) and extra top-level keys.
func (x *wire) chunk(choice map[string]any, extra map[string]any) map[string]any {
	object := "text_completion"
	if x.chat {
		object = "chat.completion.chunk"
	}
	m := map[string]any{"id": "cmpl-fake", "object": object, "created": 0, "model": x.model, "choices": []any{}}
	if choice != nil {
		choice["index"] = 0
		if _, ok := choice["finish_reason"]; !ok {
			choice["finish_reason"] = nil
		}
		m["choices"] = []any{choice}
	}
	switch x.f.Format {
	case Ollama:
		m["system_fingerprint"] = "fp_ollama"
	case LlamaCpp:
		m["system_fingerprint"] = "b0000-fake"
	}
	maps.Copy(m, extra)
	return m
}

// textChoice is a choice carrying text, in the endpoint's spelling.
func (x *wire) textChoice(text any, finish any) map[string]any {
	if x.chat {
		return map[string]any{"delta": map[string]any{"content": text}, "finish_reason": finish}
	}
	c := map[string]any{"text": text, "finish_reason": finish}
	if x.f.Format == LlamaCpp || x.f.Format == VLLM {
		c["logprobs"] = nil
	}
	return c
}

// step writes the chunk(s) for tokens that are ready; made counts every
// token so far, end is the finish reason when these are the last.
func (x *wire) step(pending []string, made int, end string) {
	x.write1(x.textChoice(strings.Join(pending, ""), nil), made, end)
}

// write1 writes one choice, after the role chunk the Format opens its
// chat stream with; made counts every token so far, end is the finish
// reason when it carries the last ones.
func (x *wire) write1(choice map[string]any, made int, end string) {
	if end != "" && (x.f.Format == VLLM || (x.f.Format == SGLang && !x.chat)) {
		choice["finish_reason"] = end // these two put the finish on the last text chunk
	}
	extra := map[string]any{}
	if x.running {
		extra["usage"] = x.usageOf(made)
	}
	if x.f.Format == Ollama && !x.chat && x.usage {
		extra["usage"] = map[string]int{"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0} // Ollama's placeholder
	}
	if !x.first && x.chat {
		x.first = true
		switch x.f.Format {
		case VLLM:
			x.send(x.chunk(map[string]any{"delta": map[string]any{"role": "assistant", "content": ""}}, x.runningAt(0)))
		case SGLang:
			x.send(x.chunk(map[string]any{"delta": map[string]any{"role": "assistant", "content": ""}}, nil))
		case LlamaCpp:
			x.send(x.chunk(map[string]any{"delta": map[string]any{"role": "assistant", "content": nil}}, nil))
		case Ollama:
			// Ollama's first chunk is its first output, with the role.
			choice["delta"].(map[string]any)["role"] = "assistant"
		}
	}
	x.send(x.chunk(choice, extra))
}

// runningAt is the running usage key of a chunk, when asked for.
func (x *wire) runningAt(made int) map[string]any {
	if !x.running {
		return nil
	}
	return map[string]any{"usage": x.usageOf(made)}
}

// finish writes what follows the last token: the finish chunk where the
// server sends one apart, the usage chunk and the terminator.
func (x *wire) finish(tokens int, reason string) {
	separate := x.f.Format == Ollama || x.f.Format == LlamaCpp || (x.f.Format == SGLang && x.chat)
	last := map[string]any{}
	if x.f.Format == LlamaCpp {
		last["timings"] = map[string]any{"prompt_n": x.prompt, "prompt_ms": 1.5, "predicted_n": tokens, "predicted_ms": 2.5}
	}
	switch {
	case x.f.Format == LlamaCpp && !x.chat:
		// llama.cpp's last /v1/completions chunk carries the usage itself.
		if !x.f.NoUsage {
			last["usage"] = x.usageOf(tokens)
		}
		x.send(x.chunk(x.textChoice("", reason), last))
		x.done()
		return
	case separate && x.chat:
		c := map[string]any{"delta": map[string]any{}, "finish_reason": reason}
		if x.f.Format == SGLang {
			c["matched_stop"] = nil
		}
		x.send(x.chunk(c, nil))
	case separate:
		x.send(x.chunk(x.textChoice("", reason), nil))
	}
	if x.usage {
		last["usage"] = x.usageOf(tokens)
		x.send(x.chunk(nil, last))
	}
	x.done()
}

// failMidStream writes the server's own mid-answer failure.
func (x *wire) failMidStream() {
	switch x.f.Format {
	case Ollama:
		x.send(x.chunk(x.textChoice("", nil), nil)) // then it closes
	case LlamaCpp:
		x.send(map[string]any{"error": map[string]any{"code": 500, "message": "the model runner failed while decoding", "type": "server_error"}})
	default:
		x.send(map[string]any{"error": map[string]any{"message": "the engine stopped while decoding", "type": "InternalServerError", "param": nil, "code": 500}})
		x.done()
	}
}

func (x *wire) done() { x.write("data: [DONE]") }

func (x *wire) send(m map[string]any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(m)
	x.write("data: " + strings.TrimSuffix(b.String(), "\n"))
}

// write sends one event and flushes it, with a keep-alive comment before
// it when asked.
func (x *wire) write(event string) {
	nl := "\n"
	if x.f.CRLF {
		nl = "\r\n"
	}
	if x.f.KeepAlive {
		_, _ = x.w.Write([]byte(":" + nl + nl))
	}
	_, _ = x.w.Write([]byte(event + nl + nl))
	if fl, ok := x.w.(http.Flusher); ok {
		fl.Flush()
	}
}

// models is the Format's /v1/models answer.
func (f *Fake) models() map[string]any {
	model := f.Model
	if model == "" {
		model = "fake-model"
	}
	card := map[string]any{"id": model, "object": "model", "created": 0}
	switch f.Format {
	case VLLM:
		card["owned_by"], card["root"], card["max_model_len"] = "vllm", model, 4096
	case SGLang:
		card["owned_by"], card["root"], card["max_model_len"] = "sglang", model, 4096
	case Ollama:
		card["owned_by"] = "library"
	case LlamaCpp:
		card["owned_by"], card["meta"] = "llamacpp", map[string]any{"n_ctx_train": 4096}
	}
	return map[string]any{"object": "list", "data": []any{card}}
}

// errorBody is the Format's refusal body.
func (f *Fake) errorBody(status int, msg string) any {
	switch f.Format {
	case SGLang:
		return map[string]any{"object": "error", "message": msg, "type": "BadRequestError", "param": nil, "code": status}
	case LlamaCpp:
		kind := "invalid_request_error"
		if strings.Contains(msg, "context size") {
			kind = "exceed_context_size_error"
		}
		return map[string]any{"error": map[string]any{"code": status, "message": msg, "type": kind}}
	case Ollama:
		kind := "invalid_request_error"
		if status == http.StatusNotFound {
			kind = "not_found_error"
		}
		return map[string]any{"error": map[string]any{"message": msg, "type": kind, "param": nil, "code": nil}}
	}
	kind := "BadRequestError"
	if status == http.StatusNotFound {
		kind = "NotFoundError"
	}
	return map[string]any{"error": map[string]any{"message": msg, "type": kind, "param": nil, "code": status}}
}
