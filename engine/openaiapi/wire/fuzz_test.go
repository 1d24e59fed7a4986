package wire

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// FuzzDecodeChatRequest: any body either decodes into a request that
// satisfies the decoder's promises or fails with a 400/413 APIError; it
// never panics.
func FuzzDecodeChatRequest(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"role":"system","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},{"role":"user","content":"q"}],"stream":true,"stream_options":{"include_usage":true}}`,
		`{"messages":[{"role":"user","content":"x"}],"max_tokens":5,"max_completion_tokens":7,"stop":["\n","END"],"seed":42,"temperature":0.7,"n":1,"ignore_eos":true,"min_tokens":3}`,
		`{"messages":[{"role":"user","content":null}],"stop":"x","seed":1e30}`,
		`{"messages":[]}`, `[]`, `null`, `{"messages":[{"role":"robot"}]}`, `{"n":2}`, `{"messages":[{"role":"user","content":"x"}]}{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req, err := DecodeChatRequest(strings.NewReader(body))
		if err != nil {
			var ae *APIError
			if !errors.As(err, &ae) || (ae.Status != http.StatusBadRequest && ae.Status != http.StatusRequestEntityTooLarge) || ae.Message == "" {
				t.Fatalf("error %v is not a 400/413 APIError with a message", err)
			}
			return
		}
		if len(req.Messages) == 0 || len(req.Messages) > maxMessages {
			t.Fatalf("accepted %d messages", len(req.Messages))
		}
		p := req.Params
		if p.MaxTokens < 0 || p.MaxTokens > maxTokensLimit || p.MinTokens < 0 || p.Temperature < 0 || p.Temperature > 2 {
			t.Fatalf("accepted params %+v", p)
		}
		if p.MaxTokens > 0 && p.MinTokens > p.MaxTokens {
			t.Fatalf("min_tokens %d over max_tokens %d", p.MinTokens, p.MaxTokens)
		}
		if req.WithUsage && !req.Stream {
			t.Fatal("include_usage accepted without stream")
		}
		if len(p.Stop) > maxStops {
			t.Fatalf("%d stops", len(p.Stop))
		}
	})
}
