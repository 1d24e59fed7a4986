package upstream

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// readAll runs the stream reader over body on a clock that steps 1 ms per
// reading.
func readAll(body string) (Result, []Chunk, error) {
	var res Result
	var chunks []Chunk
	t := time.Unix(0, 0)
	s := streamReader{res: &res, onChunk: func(c Chunk) { chunks = append(chunks, c) },
		now: func() time.Time { t = t.Add(time.Millisecond); return t }}
	err := s.read(strings.NewReader(body))
	return res, chunks, err
}

func TestStreamReaderEdgeShapes(t *testing.T) {
	cases := []struct {
		name, body   string
		text         string
		tokens       int
		usage        int // CompletionTokens(); -1 for an error
		errIs        error
		errSubstring string
	}{
		{name: "finish without [DONE] is complete",
			body: "data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: {\"choices\":[{\"text\":\"\",\"finish_reason\":\"stop\"}]}\n\n",
			text: "a", tokens: 1, usage: 1},
		{name: "no finish and no [DONE]", body: "data: {\"choices\":[{\"text\":\"a\"}]}\n\n",
			text: "a", tokens: 1, usage: -1, errIs: ErrIncomplete},
		{name: "ollama zero usage placeholders are no count",
			body: "data: {\"choices\":[{\"text\":\"a\"}],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":0,\"total_tokens\":0}}\n\n" +
				"data: {\"choices\":[{\"text\":\"b\",\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":0,\"total_tokens\":0}}\n\n" +
				"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2,\"total_tokens\":6}}\n\ndata: [DONE]\n\n",
			text: "ab", tokens: 2, usage: 2},
		{name: "reasoning tokens count, answer text apart",
			body: "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"reasoning\":\" so\"}}]}\n\n" +
				"data: {\"choices\":[{\"delta\":{\"content\":\"yes\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
			text: "yes", tokens: 3, usage: 3},
		{name: "older llama.cpp error field", body: "data: {\"choices\":[{\"text\":\"a\"}]}\n\nerror: {\"code\":500,\"message\":\"slot failed\",\"type\":\"server_error\"}\n\n",
			text: "a", tokens: 1, usage: -1, errSubstring: "broke off the answer: slot failed"},
		{name: "event: error", body: "event: error\ndata: {\"message\":\"overloaded\"}\n\n", usage: -1, errSubstring: "overloaded"},
		{name: "flat error object in stream", body: "data: {\"object\":\"error\",\"message\":\"bad\\nthing\",\"type\":\"BadRequestError\",\"code\":400}\n\n",
			usage: -1, errSubstring: "broke off the answer: bad thing"},
		{name: "not json", body: "data: {\"choices\": [1]}\n\n", usage: -1, errSubstring: "cannot read"},
		{name: "empty data lines and bare CR line ends",
			body: "data:\r\rdata:{\"choices\":[{\"text\":\"x\",\"finish_reason\":\"length\"}]}\r\rdata: [DONE]\r\r", text: "x", tokens: 1, usage: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := readAll(c.body)
			switch {
			case c.usage >= 0 && err != nil:
				t.Fatalf("error %v", err)
			case c.errIs != nil && !errors.Is(err, c.errIs):
				t.Fatalf("error %v, want %v", err, c.errIs)
			case c.errSubstring != "" && (err == nil || !strings.Contains(err.Error(), c.errSubstring)):
				t.Fatalf("error %v, want one naming %q", err, c.errSubstring)
			}
			if res.Text != c.text || res.Tokens != c.tokens {
				t.Errorf("text %q, %d tokens; want %q, %d", res.Text, res.Tokens, c.text, c.tokens)
			}
			if c.usage >= 0 && res.CompletionTokens() != c.usage {
				t.Errorf("completion tokens %d, want %d", res.CompletionTokens(), c.usage)
			}
		})
	}
}

func FuzzStreamReader(f *testing.F) {
	f.Add("data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":0,\"total_tokens\":3}}\n\n" +
		"data: {\"choices\":[{\"delta\":{\"content\":\" a b\"}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}\n\ndata: [DONE]\n\n")
	f.Add(":\n\ndata: {\"choices\":[{\"text\":\"x\\r\",\"finish_reason\":null,\"logprobs\":null}],\"timings\":{\"prompt_n\":1}}\r\n\r\ndata: {\"choices\":[{\"text\":\"\\ny\",\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,\"total_tokens\":3}}\n\ndata: [DONE]\n\n")
	f.Add("data: {\"choices\":[{\"delta\":{\"content\":\"\"},\"finish_reason\":null}],\"system_fingerprint\":\"fp_ollama\"}\n\n")
	f.Add("data: {\"error\":{\"message\":\"x\",\"code\":500}}\n\ndata: [DONE]\n\n")
	f.Add("event: error\ndata: \"text\"\n\nerror: {}\n")
	f.Add("data: {\"choices\":[{\"text\":\"a\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":-5,\"total_tokens\":1}}\n\n")
	f.Add("data: {\"choices\":[{\"delta\":{\"content\":\"<th\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"ink>x</think>y\"},\"finish_reason\":\"stop\"}]}\n\n")
	f.Fuzz(func(t *testing.T, body string) {
		res, chunks, err := readAll(body)
		sum := 0
		var text, thought strings.Builder
		for _, c := range chunks {
			thought.WriteString(c.Reasoning)
			if c.Tokens < 0 {
				t.Fatalf("chunk %+v carries negative tokens", c)
			}
			sum += c.Tokens
			text.WriteString(c.Text)
		}
		if sum != res.Tokens || text.String() != res.Text {
			t.Fatalf("chunks sum to %d tokens and %q, result says %d and %q", sum, text.String(), res.Tokens, res.Text)
		}
		if thought.String() != res.Reasoning {
			t.Fatalf("chunks carry reasoning %q, result says %q", thought.String(), res.Reasoning)
		}
		if strings.ContainsRune(res.Text, '\r') {
			t.Fatalf("text %q keeps a CR", res.Text)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\r\n") {
			t.Fatalf("error %q spans lines", err)
		}
	})
}
