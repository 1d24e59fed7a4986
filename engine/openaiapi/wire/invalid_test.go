package wire

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// goInternals matches what a client must never read in an error: Go type,
// struct and package names leaked from encoding/json.
var goInternals = regexp.MustCompile(`rawChat|rawCommon|rawCompletion|rawMessage|\bstruct\b|Go (value|struct)|\bint64\b|\bfloat64\b|wire\.|json: `)

var testLimits = Limits{VocabSize: 128256, MaxContext: 131072}

// Each body is refused with 400, names the right field (or none, for a
// whole-body fault), says why, and leaks no Go internals.
func TestDecodeRefusesWhatVLLMRefuses(t *testing.T) {
	const chat, completion = true, false
	cases := []struct {
		name     string
		endpoint bool
		body     string
		param    string
		says     string
	}{
		{"user content null", chat, `{"messages":[{"role":"user","content":null}]}`, "messages[0].content", "null"},
		{"user content missing", chat, `{"messages":[{"role":"user"}]}`, "messages[0].content", "needs text content"},
		{"system content null", chat, `{"messages":[{"role":"system","content":null},{"role":"user","content":"x"}]}`, "messages[0].content", "system message"},
		{"invalid UTF-8", chat, "{\"messages\":[{\"role\":\"user\",\"content\":\"a\xff\xfeb\"}]}", "", "not valid UTF-8"},
		{"invalid UTF-8 in prompt", completion, "{\"prompt\":\"\xc3\"}", "", "not valid UTF-8"},
		{"lone high surrogate", chat, `{"messages":[{"role":"user","content":"\ud800"}]}`, "", "lone UTF-16 surrogate"},
		{"lone low surrogate", completion, `{"prompt":"x\udc00y"}`, "", "lone UTF-16 surrogate"},
		{"high then non-low", chat, `{"messages":[{"role":"user","content":"\ud800\u0041"}]}`, "", "lone UTF-16 surrogate"},
		{"NUL escape", chat, `{"messages":[{"role":"user","content":"a\u0000b"}]}`, "", "NUL"},
		{"NUL in stop", completion, `{"prompt":"x","stop":"\u0000"}`, "", "NUL"},
		{"raw NUL byte", chat, "{\"messages\":[{\"role\":\"user\",\"content\":\"a\x00b\"}]}", "", "not valid JSON"},
		{"token id 2^40", completion, `{"prompt":[1,1099511627776]}`, "prompt", "out of vocabulary: want 0..128255"},
		{"token id = vocab", completion, `{"prompt":[[128256]]}`, "prompt", "prompt[0]"},
		{"best_of 2", completion, `{"prompt":"x","best_of":2}`, "best_of", "one candidate"},
		{"logprobs completions", completion, `{"prompt":"x","logprobs":5}`, "logprobs", "log probabilities"},
		{"logprobs chat", chat, `{"messages":[{"role":"user","content":"x"}],"logprobs":true}`, "logprobs", "log probabilities"},
		{"top_logprobs", chat, `{"messages":[{"role":"user","content":"x"}],"top_logprobs":3}`, "top_logprobs", "log probabilities"},
		{"echo", completion, `{"prompt":"x","echo":true}`, "echo", "echo"},
		{"suffix", completion, `{"prompt":"x","suffix":"end"}`, "suffix", "suffix"},
		{"logit_bias", chat, `{"messages":[{"role":"user","content":"x"}],"logit_bias":{"50256":-100}}`, "logit_bias", "bias"},
		{"tools", chat, `{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function"}]}`, "tools", "tools"},
		{"json mode", chat, `{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object"}}`, "response_format", "plain text"},
		{"n 2", chat, `{"messages":[{"role":"user","content":"x"}],"n":2}`, "n", "one choice"},
		{"top_p 0", chat, `{"messages":[{"role":"user","content":"x"}],"top_p":0}`, "top_p", "above 0"},
		{"presence_penalty 3", completion, `{"prompt":"x","presence_penalty":3}`, "presence_penalty", "-2..2"},
		{"max_tokens 2^31", chat, `{"messages":[{"role":"user","content":"x"}],"max_tokens":2147483648}`, "max_tokens", "want 1..131072"},
		{"max_tokens 0", completion, `{"prompt":"x","max_tokens":0}`, "max_tokens", "want 1..131072"},
		{"max_tokens float", chat, `{"messages":[{"role":"user","content":"x"}],"max_tokens":1.5}`, "max_tokens", "must be an integer, not number 1.5"},
		{"max_tokens string", completion, `{"prompt":"x","max_tokens":"9"}`, "max_tokens", "must be an integer, not string"},
		{"max_tokens beyond int64", chat, `{"messages":[{"role":"user","content":"x"}],"max_tokens":1e20}`, "max_tokens", "must be an integer"},
		{"stream not bool", chat, `{"messages":[{"role":"user","content":"x"}],"stream":1}`, "stream", "true or false"},
		{"role not string", chat, `{"messages":[{"role":5,"content":"x"}]}`, "messages.role", "a string"},
		{"messages object", chat, `{"messages":{}}`, "messages", "an array"},
		{"body an array", chat, `[]`, "", "must be a JSON object"},
		{"body empty", completion, ``, "", "empty"},
		{"syntax", chat, `{"messages":[}`, "", "not valid JSON"},
		{"seed fraction", completion, `{"prompt":"x","seed":1.5}`, "seed", "integer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.endpoint == chat {
				_, err = DecodeChatRequest(strings.NewReader(c.body), testLimits)
			} else {
				_, err = DecodeCompletionRequest(strings.NewReader(c.body), testLimits)
			}
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("err %v, want an APIError", err)
			}
			if ae.Status != http.StatusBadRequest || ae.Type != "invalid_request_error" || ae.Param != c.param {
				t.Errorf("got status %d type %q param %q, want 400 invalid_request_error %q", ae.Status, ae.Type, ae.Param, c.param)
			}
			if !strings.Contains(ae.Message, c.says) {
				t.Errorf("message %q does not say %q", ae.Message, c.says)
			}
			if goInternals.MatchString(ae.Message) {
				t.Errorf("message %q names Go internals", ae.Message)
			}
		})
	}
}

// The "off" spellings SDKs send by default stay accepted, and so do a
// real surrogate pair and an escaped backslash before a u.
func TestDecodeAcceptsDefaultsAndRealText(t *testing.T) {
	cases := []struct {
		name, body, content string
	}{
		{"off values", `{"messages":[{"role":"user","content":"x"}],"logprobs":false,"top_logprobs":0,"best_of":1,"echo":false,"suffix":"",
			"logit_bias":{},"tools":[],"response_format":{"type":"text"},"top_p":1,"presence_penalty":0,"frequency_penalty":-2,"n":1}`, "x"},
		{"surrogate pair", `{"messages":[{"role":"user","content":"\ud83d\ude00"}]}`, "\U0001F600"},
		{"escaped backslash then u", `{"messages":[{"role":"user","content":"\\ud800"}]}`, `\ud800`},
		{"assistant null content", `{"messages":[{"role":"assistant","content":null},{"role":"user","content":"q"}]}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := DecodeChatRequest(strings.NewReader(c.body), testLimits)
			if err != nil {
				t.Fatal(err)
			}
			if req.Messages[0].Content != c.content {
				t.Fatalf("content %q, want %q", req.Messages[0].Content, c.content)
			}
		})
	}
	if _, err := DecodeCompletionRequest(strings.NewReader(`{"prompt":[0,128255],"logprobs":null}`), testLimits); err != nil {
		t.Fatalf("ids at the vocabulary's ends: %v", err)
	}
}
