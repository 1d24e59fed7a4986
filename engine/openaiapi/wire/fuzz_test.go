package wire

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are bodies both targets start from: valid requests and each
// kind of input vLLM refuses (null content, bad UTF-8, lone surrogates,
// NUL, token ids beyond the vocabulary, unsupported settings).
var fuzzSeeds = []string{
	`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
	`{"messages":[{"role":"system","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},{"role":"user","content":"q"}],"stream":true,"stream_options":{"include_usage":true}}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":5,"max_completion_tokens":7,"stop":["\n","END"],"seed":42,"temperature":0.7,"n":1,"ignore_eos":true,"min_tokens":3}`,
	`{"messages":[{"role":"user","content":null}],"stop":"x","seed":1e30}`,
	`{"messages":[]}`, `[]`, `null`, `{"messages":[{"role":"robot"}]}`, `{"n":2}`, `{"messages":[{"role":"user","content":"x"}]}{}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":\"a\xffb\"}]}",
	`{"messages":[{"role":"user","content":"\ud800"}]}`,
	`{"messages":[{"role":"user","content":"\ud83d\ude00 \\ud800"}]}`,
	`{"messages":[{"role":"user","content":"a\u0000b"}]}`,
	`{"prompt":[1,1099511627776]}`, `{"prompt":[[5,6]],"best_of":3}`, `{"prompt":"x","logprobs":1,"echo":true}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":2147483648,"logprobs":true,"top_logprobs":2}`,
	`{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema"},"tools":[{}],"top_p":0}`,
}

// check asserts what every accepted request promises, and that every
// refusal is a 400/413 APIError with a message free of Go internals.
func check(t *testing.T, err error, texts []string, p Params, stream, withUsage bool) {
	if err != nil {
		var ae *APIError
		if !errors.As(err, &ae) || (ae.Status != http.StatusBadRequest && ae.Status != http.StatusRequestEntityTooLarge) || ae.Message == "" {
			t.Fatalf("error %v is not a 400/413 APIError with a message", err)
		}
		if goInternals.MatchString(ae.Message) {
			t.Fatalf("message %q names Go internals", ae.Message)
		}
		return
	}
	for _, s := range texts {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			t.Fatalf("accepted text %q is not NUL-free UTF-8", s)
		}
	}
	if p.MaxTokens < 0 || p.MaxTokens > maxTokensLimit || p.MinTokens < 0 || p.Temperature < 0 || p.Temperature > 2 {
		t.Fatalf("accepted params %+v", p)
	}
	if p.MaxTokens > 0 && p.MinTokens > p.MaxTokens {
		t.Fatalf("min_tokens %d over max_tokens %d", p.MinTokens, p.MaxTokens)
	}
	if withUsage && !stream {
		t.Fatal("include_usage accepted without stream")
	}
	if len(p.Stop) > maxStops {
		t.Fatalf("%d stops", len(p.Stop))
	}
}

// FuzzDecodeChatRequest: any body either decodes into a request that
// satisfies the decoder's promises or fails with a clean 400/413; it never
// panics.
func FuzzDecodeChatRequest(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req, err := DecodeChatRequest(strings.NewReader(body), testLimits)
		if err != nil {
			check(t, err, nil, Params{}, false, false)
			return
		}
		if len(req.Messages) == 0 || len(req.Messages) > maxMessages {
			t.Fatalf("accepted %d messages", len(req.Messages))
		}
		texts := []string{req.Model}
		for _, m := range req.Messages {
			texts = append(texts, m.Content)
		}
		check(t, nil, append(texts, req.Params.Stop...), req.Params, req.Stream, req.WithUsage)
	})
}

// FuzzDecodeCompletionRequest: the same promises for /v1/completions, plus
// every accepted token id lies inside the vocabulary.
func FuzzDecodeCompletionRequest(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req, err := DecodeCompletionRequest(strings.NewReader(body), testLimits)
		if err != nil {
			check(t, err, nil, Params{}, false, false)
			return
		}
		if req.PromptIDs == nil && req.Prompt == "" {
			t.Fatal("accepted an empty prompt")
		}
		for _, id := range req.PromptIDs {
			if id < 0 || id >= testLimits.VocabSize {
				t.Fatalf("accepted token id %d", id)
			}
		}
		check(t, nil, append([]string{req.Model, req.Prompt}, req.Params.Stop...), req.Params, req.Stream, req.WithUsage)
	})
}
