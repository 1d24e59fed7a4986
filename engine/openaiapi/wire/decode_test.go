package wire

import (
	"slices"
	"strings"
	"testing"
)

func TestDecodeCompletionPromptForms(t *testing.T) {
	cases := []struct {
		body   string
		prompt string
		ids    []int
		max    int
		bad    string
	}{
		{body: `{"prompt":"hi"}`, prompt: "hi", max: 16},
		{body: `{"prompt":["hi"],"max_tokens":3}`, prompt: "hi", max: 3},
		{body: `{"prompt":[1,2,3]}`, ids: []int{1, 2, 3}, max: 16},
		{body: `{"prompt":[[4,5]]}`, ids: []int{4, 5}, max: 16},
		{body: `{"prompt":["a","b"]}`, bad: "one prompt per request"},
		{body: `{"prompt":[-1]}`, bad: "negative"},
		{body: `{"prompt":""}`, bad: "empty"},
		{body: `{}`, bad: "required"},
		{body: `{"prompt":{"x":1}}`, bad: "token ids"},
		{body: `{"prompt":"x","max_tokens":0}`, bad: "want 1.."},
		{body: `{"prompt":"x","stop":[1]}`, bad: "array of strings"},
		{body: `{"prompt":"x","seed":1.5}`, bad: "integer"},
		{body: `{"prompt":"x","min_tokens":20}`, bad: "0..max_tokens"},
	}
	for _, c := range cases {
		req, err := DecodeCompletionRequest(strings.NewReader(c.body), Limits{})
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%s: err %v, want one mentioning %q", c.body, err, c.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		if req.Prompt != c.prompt || !slices.Equal(req.PromptIDs, c.ids) || req.Params.MaxTokens != c.max {
			t.Errorf("%s: got %+v", c.body, req)
		}
	}
}

func TestDecodeChatParams(t *testing.T) {
	req, err := DecodeChatRequest(strings.NewReader(`{"model":"m","messages":[{"role":"system","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},{"role":"user","content":"q"}],
		"max_tokens":5,"max_completion_tokens":9,"stop":"END","seed":42,"temperature":0.5,"stream":true,"stream_options":{"include_usage":true},"ignore_eos":true,"min_tokens":2}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p := req.Params
	if req.Messages[0].Content != "a\nb" || p.MaxTokens != 9 || !slices.Equal(p.Stop, []string{"END"}) || *p.Seed != 42 ||
		p.Temperature != 0.5 || !req.Stream || !req.WithUsage || !p.IgnoreEOS || p.MinTokens != 2 {
		t.Fatalf("decoded %+v params %+v", req, p)
	}
	for _, body := range []string{
		`{"messages":[{"role":"user","content":[{"type":"image_url"}]}]}`,
		`{"messages":[{"role":"user","content":"x"}],"n":3}`,
		`{"messages":[{"role":"user","content":"x"}]} trailing`,
	} {
		if _, err := DecodeChatRequest(strings.NewReader(body), Limits{}); err == nil {
			t.Errorf("accepted %s", body)
		}
	}
}
