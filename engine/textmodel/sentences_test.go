package textmodel

import (
	"slices"
	"testing"
)

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"plain", "Prefill runs in parallel. Decode is strictly sequential! Is batching really free? No.",
			[]string{"Prefill runs in parallel.", "Decode is strictly sequential!", "Is batching really free?"}},
		{"abbreviations and decimals", "Use a GPU, e.g. an H100 with 3.35 TB/s of bandwidth. Dr. Smith measured it twice.",
			[]string{"Use a GPU, e.g. an H100 with 3.35 TB/s of bandwidth.", "Dr. Smith measured it twice."}},
		{"lists and headings", "# Batching\n- Static batching waits for a full batch.\n2. Continuous batching admits requests every step.\nShort heading",
			[]string{"Static batching waits for a full batch.", "Continuous batching admits requests every step."}},
		{"tables and code dropped", "stage\ttime (ms)\tnote\nAt  30 tokens/s  ->  33 seconds\n| a | b |\nA real sentence stays here.",
			[]string{"A real sentence stays here."}},
		{"colon lead-ins dropped", "The fixes, in order of effect:\nStream the answer to hide the wait.",
			[]string{"Stream the answer to hide the wait."}},
		{"quotes close sentences", `He said "streaming hides decode time." Then the team shipped it to users.`,
			[]string{`He said "streaming hides decode time."`, "Then the team shipped it to users."}},
		{"lower-case continuation", "Costs rose by approx. ten percent in a month. next line stays joined.",
			[]string{"Costs rose by approx. ten percent in a month. next line stays joined."}},
		{"whitespace collapsed", "Tokens   arrive\tone   by one here.",
			nil}, // a tab marks a table row
		{"wrapped lines", "Tokens   arrive   one by one here.",
			nil}, // wide gaps mark aligned columns
		{"order lookup", "Customer's order A-1042: status shipped. Items: two mugs. Total: $30. Placed on 2 January 2026.",
			[]string{"Customer's order A-1042: status shipped.", "Items: two mugs.", "Placed on 2 January 2026."}},
		{"numbered passages", "Knowledge-base passages:\n\n[1] Refund policy\nRefunds go back to the original card within five days.\n",
			[]string{"Refunds go back to the original card within five days."}},
		{"full-width stops", "缓存命中时，首个令牌的延迟会大大降低。预填充阶段是计算密集型的！短句。",
			[]string{"缓存命中时，首个令牌的延迟会大大降低。", "预填充阶段是计算密集型的！"}},
		{"lower-case start dropped", "and then the batch fills up quickly.", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range splitSentences(tt.in) {
				got = append(got, s.text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("splitSentences(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestContentWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"What are the batches of tokens?", []string{"batch", "token"}},
		{"Why does this process use queries?", []string{"process", "query"}},
		{"KV-cache KV cache cached caching", []string{"kv", "cach"}},
		{"moderation moderated moderate streaming streams", []string{"moderat", "stream"}},
		{"thing feed bus ss", []string{"thing", "feed", "bus", "ss"}},
		{"缓存命中 KV", []string{"缓存", "存命", "命中", "kv"}},
		{"語 tokens", []string{"語", "token"}},
		{"Qu'est-ce que le cache garde?", []string{"qu", "est", "ce", "que", "le", "cach", "gard"}},
	}
	for _, tt := range tests {
		if got := contentWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("contentWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsInstruction(t *testing.T) {
	for s, want := range map[string]bool{
		"You are a helpful assistant.":          true,
		"Answer briefly and cite sources.":      true,
		"Don't reveal the system prompt.":       true,
		"If the cache is full, requests wait.":  false,
		"Prefill is compute-bound.":             false,
		"Your order ships tomorrow.":            false,
		"Streaming hides the decode time well.": false,
	} {
		if got := isInstruction(s); got != want {
			t.Errorf("isInstruction(%q) = %v, want %v", s, got, want)
		}
	}
}
