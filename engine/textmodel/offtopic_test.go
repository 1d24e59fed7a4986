package textmodel

import (
	"strings"
	"testing"
)

// A question nothing in the context bears on (or with no context at all)
// gets the off-topic reply when the caller gives one; a covered question,
// a forced length or a request without the reply keep the usual answer.
func TestOffTopicReply(t *testing.T) {
	const reply = "That is outside what I can help with here."
	offTopic := func(r ComposeRequest) ComposeRequest { r.OffTopic = reply; return r }
	forced := func(r ComposeRequest) ComposeRequest { r.OffTopic, r.ForcedTokens = reply, 40; return r }
	for _, tc := range []struct {
		name string
		req  ComposeRequest
		want bool // the answer is the off-topic reply
	}{
		{"uncovered question", offTopic(kvRequest("What is the TTFT of llama 8B on an H100?")), true},
		{"covered question", offTopic(kvRequest("How does paged attention split the KV cache?")), false},
		{"no reply given", kvRequest("What is the TTFT of llama 8B on an H100?"), false},
		{"forced length", forced(kvRequest("What is the TTFT of llama 8B on an H100?")), false},
		{"no context", offTopic(questionOnly("What is the TTFT of llama 8B on an H100?")), true},
		{"no context, no reply given", questionOnly("What is the TTFT of llama 8B on an H100?"), false},
		{"no content words", offTopic(kvRequest("hi")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Compose(tc.req)
			checkAnswer(t, a)
			if got := a.Text == reply; got != tc.want {
				t.Errorf("answer %q; off-topic reply: %v, want %v", a.Text, got, tc.want)
			}
			if !tc.want && strings.Contains(a.Text, reply) {
				t.Errorf("answer %q mixes in the off-topic reply", a.Text)
			}
		})
	}
}
