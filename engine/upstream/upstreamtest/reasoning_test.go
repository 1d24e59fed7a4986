package upstreamtest

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/upstream"
)

// A reasoning model, in each server's field and as a <think> block in the
// text: the client hands back the thinking apart from the answer, counts
// its tokens, and times the first token at the first thinking token.
func TestClientSeparatesThinking(t *testing.T) {
	type variant struct {
		name        string
		chat, inTxt bool
	}
	variants := []variant{{"chat, own field", true, false}, {"chat, <think> in the text", true, true}, {"text completion", false, false}}
	for _, f := range Formats {
		for _, v := range variants {
			t.Run(string(f)+"/"+v.name, func(t *testing.T) {
				fake := Fake{Format: f, Reasoning: 4, ThinkInText: v.inTxt}
				m := measure(t, fake, v.chat, false, upstream.Request{MaxTokens: 10, IgnoreEOS: true})
				if m.err != nil {
					t.Fatal(m.err)
				}
				wantThought := " " + strings.Join(thinkWords[:4], " ")
				if strings.TrimSpace(m.res.Reasoning) != strings.TrimSpace(wantThought) {
					t.Errorf("reasoning %q, want %q", m.res.Reasoning, wantThought)
				}
				answer := 10 - 4 // the thinking counts against max_tokens
				if got := len(strings.Fields(m.res.Text)); got != answer || strings.Contains(m.res.Text, "think") {
					t.Errorf("answer %q has %d words, want %d and no tags", m.res.Text, got, answer)
				}
				if m.res.CompletionTokens() != 10 || len(m.at) == 0 || m.at[0] != fakeTTFT {
					t.Errorf("%d tokens, first at %v; want 10 at %v", m.res.CompletionTokens(), m.at, fakeTTFT)
				}
			})
		}
	}
}

// Thinking that uses up max_tokens ends the stream with "length" and no
// answer.
func TestThinkingCutOffByMaxTokens(t *testing.T) {
	m := measure(t, Fake{Format: VLLM, Reasoning: 8}, true, false, upstream.Request{MaxTokens: 5})
	if m.err != nil || m.res.Text != "" || m.res.FinishReason != "length" || len(strings.Fields(m.res.Reasoning)) != 5 {
		t.Errorf("text %q reasoning %q finish %q err %v", m.res.Text, m.res.Reasoning, m.res.FinishReason, m.err)
	}
	if want := fakeTTFT + 4*fakeGap; m.at[len(m.at)-1] != want {
		t.Errorf("last thinking token at %v, want %v", m.at[len(m.at)-1], time.Duration(want))
	}
}
