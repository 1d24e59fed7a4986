package streaming

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/textmodel"
)

func TestBuildPromptExactLength(t *testing.T) {
	for _, n := range []int{50, 51, 64, 300, 1000, 1001, 4097, 8000} {
		p, err := buildPrompt(n, "Session streaming-0123abcd-99999")
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(p.ids) != n {
			t.Errorf("n=%d: prompt has %d tokens", n, len(p.ids))
		}
		text := textmodel.Decode(p.ids)
		for _, want := range []string{question, instructions, "<|start_header_id|>assistant<|end_header_id|>"} {
			if !strings.Contains(text, want) {
				t.Errorf("n=%d: prompt lacks %q", n, want)
			}
		}
		if got := p.ids[len(p.ids)-4:]; got[0] != textmodel.StartHeader {
			t.Errorf("n=%d: prompt does not end with the assistant header: %v", n, got)
		}
		if n >= 300 && !strings.Contains(text, supportNotes[0]) {
			t.Errorf("n=%d: prompt lacks the support notes", n)
		}
	}
}

func TestBuildPromptMatchesTemplate(t *testing.T) {
	if _, err := buildPrompt(20, "Session s"); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Fatalf("20-token prompt: %v, want a too-short error", err)
	}
	// The spliced ids must read exactly as the chat template renders the
	// same system message (cut where the notes end in a letter, since the
	// template trims trailing whitespace).
	head := "Session s\n" + instructions + "\n\nSupport notes:"
	checked := 0
	for n := 50; n < 700 && checked < 20; n += 7 {
		p, err := buildPrompt(n, "Session s")
		if err != nil {
			t.Fatal(err)
		}
		base := textmodel.PromptTokens([]textmodel.Message{{Role: textmodel.RoleSystem, Content: head}, {Role: textmodel.RoleUser, Content: question}})
		notes := textmodel.Decode(noteIDs(n - len(base)))
		if notes == "" || strings.TrimSpace(notes[len(notes)-1:]) == "" {
			continue
		}
		checked++
		want := textmodel.Decode(textmodel.PromptTokens([]textmodel.Message{
			{Role: textmodel.RoleSystem, Content: head + notes},
			{Role: textmodel.RoleUser, Content: question},
		}))
		if got := textmodel.Decode(p.ids); got != want {
			t.Fatalf("n=%d: spliced prompt differs from the template:\n%q\n%q", n, got, want)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d cut points checked", checked)
	}
}

func TestSessionsShareNoCachedBlock(t *testing.T) {
	a, _ := buildPrompt(1000, "Session streaming-aaaa-1")
	b, _ := buildPrompt(1000, "Session streaming-aaaa-2")
	same := true
	for i := range engine.BlockSize {
		same = same && a.ids[i] == b.ids[i]
	}
	if same {
		t.Error("two runs share their first KV block, so the second would hit the prefix cache")
	}
}

func TestComposeAnswer(t *testing.T) {
	for _, n := range []int{50, 300, 1000} {
		for _, prompt := range []int{50, 1000, 8000} {
			p, err := buildPrompt(prompt, "Session x")
			if err != nil {
				t.Fatal(err)
			}
			a := composeAnswer(p, n)
			if len(a.Tokens) != n || len(a.Pieces) != n {
				t.Errorf("answer %d/prompt %d: %d tokens, %d pieces", n, prompt, len(a.Tokens), len(a.Pieces))
			}
			if strings.Join(a.Pieces, "") != a.Text {
				t.Errorf("answer %d/prompt %d: pieces do not join to the text", n, prompt)
			}
			if strings.Contains(a.Text, "Session") || strings.Contains(a.Text, "Week ") {
				t.Errorf("answer %d/prompt %d quotes the prompt's scaffolding: %q", n, prompt, a.Text)
			}
			// A long prompt repeats the notes; the answer must not.
			for _, s := range supportNotes {
				if c := strings.Count(a.Text, s); c > 1 {
					t.Errorf("answer %d/prompt %d repeats a note %d times", n, prompt, c)
				}
			}
		}
	}
}
