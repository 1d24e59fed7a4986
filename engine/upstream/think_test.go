package upstream

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// splitAll runs pieces through a splitter and its flush, returning the
// answer and reasoning each piece gave (the flush as a last entry).
func splitAll(pieces []string) (texts, thoughts []string) {
	var t thinkSplitter
	for _, p := range pieces {
		text, thought := t.split(p)
		texts, thoughts = append(texts, text), append(thoughts, thought)
	}
	text, thought := t.flush()
	return append(texts, text), append(thoughts, thought)
}

func TestThinkSplitter(t *testing.T) {
	cases := []struct {
		name     string
		pieces   []string
		texts    []string // per piece, then the flush
		thoughts []string
	}{
		{name: "no think block passes through", pieces: []string{"Refunds", " take", " 5 days."},
			texts: []string{"Refunds", " take", " 5 days.", ""}, thoughts: []string{"", "", "", ""}},
		{name: "whole tags in their own pieces", pieces: []string{"<think>", "\nhmm", " ok\n", "</think>", "\n\n", "Yes", "."},
			texts: []string{"", "", "", "", "", "Yes", ".", ""}, thoughts: []string{"", "\nhmm", " ok\n", "", "", "", "", ""}},
		{name: "tags cut between pieces", pieces: []string{"<th", "ink>a", "b</", "thi", "nk>", "Ans"},
			texts: []string{"", "", "", "", "", "Ans", ""}, thoughts: []string{"", "a", "b", "", "", "", ""}},
		{name: "everything in one piece", pieces: []string{"<think>why</think>\n\nBecause."},
			texts: []string{"Because.", ""}, thoughts: []string{"why", ""}},
		{name: "white space before the block", pieces: []string{"\n", " <think>x</think>y"},
			texts: []string{"", "y", ""}, thoughts: []string{"", "x", ""}},
		{name: "unterminated block at the end is all reasoning", pieces: []string{"<think>still", " going</th"},
			texts: []string{"", "", ""}, thoughts: []string{"still", " going", "</th"}},
		{name: "a tag that is not at the start stays text", pieces: []string{"Use ", "<think>", " tags"},
			texts: []string{"Use ", "<think>", " tags", ""}, thoughts: []string{"", "", "", ""}},
		{name: "a start that never became a tag is text", pieces: []string{"<thi"},
			texts: []string{"", "<thi"}, thoughts: []string{"", ""}},
		{name: "a near miss is text", pieces: []string{"<thin", "g>"},
			texts: []string{"", "<thing>", ""}, thoughts: []string{"", "", ""}},
		{name: "a close tag look-alike inside stays reasoning", pieces: []string{"<think>a </thinking> b", "</think>c"},
			texts: []string{"", "c", ""}, thoughts: []string{"a </thinking> b", "", ""}},
		{name: "a second block after the answer stays text", pieces: []string{"<think>a</think>b", "<think>c</think>"},
			texts: []string{"b", "<think>c</think>", ""}, thoughts: []string{"a", "", ""}},
		{name: "an empty block", pieces: []string{"<think></think>", "Hi"},
			texts: []string{"", "Hi", ""}, thoughts: []string{"", "", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			texts, thoughts := splitAll(c.pieces)
			if strings.Join(texts, "|") != strings.Join(c.texts, "|") {
				t.Errorf("texts %q, want %q", texts, c.texts)
			}
			if strings.Join(thoughts, "|") != strings.Join(c.thoughts, "|") {
				t.Errorf("reasoning %q, want %q", thoughts, c.thoughts)
			}
		})
	}
}

// The stream reader splits a think block out of the answer, counts the
// tag's tokens, and flushes a block the stream cut off.
func TestStreamReaderThinkBlock(t *testing.T) {
	cases := []struct {
		name, body        string
		text, reasoning   string
		tokens, chunkSeen int
	}{
		{name: "think block in content",
			body: "data: {\"choices\":[{\"delta\":{\"content\":\"<think>\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"plan\\r\\n\"}}]}\n\n" +
				"data: {\"choices\":[{\"delta\":{\"content\":\"</think>\\n\\nDone\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
			text: "Done", reasoning: "plan\n", tokens: 3, chunkSeen: 3},
		{name: "stream ends inside the block, no finish",
			body: "data: {\"choices\":[{\"text\":\"<think>a</thi\"}]}\n\ndata: [DONE]\n\n",
			text: "", reasoning: "a</thi", tokens: 1, chunkSeen: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, chunks, err := readAll(c.body)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != c.text || res.Reasoning != c.reasoning || res.Tokens != c.tokens || len(chunks) != c.chunkSeen {
				t.Errorf("text %q reasoning %q, %d tokens in %d chunks; want %q %q %d in %d",
					res.Text, res.Reasoning, res.Tokens, len(chunks), c.text, c.reasoning, c.tokens, c.chunkSeen)
			}
		})
	}
}

// FuzzThinkSplitter: however a text is cut into pieces, the splitter
// gives the same answer and reasoning as for the text in one piece, both
// taken whole from the input (the answer its end, the reasoning a run of
// it), and never leaves an opening tag at the start of the answer.
func FuzzThinkSplitter(f *testing.F) {
	f.Add("<think>a</think>b", uint8(3))
	f.Add("  <think>\nx</think>\n\nDone.", uint8(1))
	f.Add("<thi", uint8(2))
	f.Add("plain <think> text", uint8(4))
	f.Add("<think>never closed </thin", uint8(5))
	f.Fuzz(func(t *testing.T, s string, cut uint8) {
		if !utf8.ValidString(s) {
			return
		}
		n := int(cut%8) + 1
		var pieces []string
		for rest := s; rest != ""; {
			k := min(n, len(rest))
			pieces, rest = append(pieces, rest[:k]), rest[k:]
		}
		texts, thoughts := splitAll(pieces)
		wholeT, wholeR := splitAll([]string{s})
		text, thought := strings.Join(texts, ""), strings.Join(thoughts, "")
		if text != strings.Join(wholeT, "") || thought != strings.Join(wholeR, "") {
			t.Fatalf("pieces of %d give %q / %q; whole gives %q / %q", n, text, thought, wholeT, wholeR)
		}
		if len(text)+len(thought) > len(s) || !strings.HasSuffix(s, text) || !strings.Contains(s, thought) {
			t.Fatalf("%q / %q is not the input %q taken apart", text, thought, s)
		}
		if strings.HasPrefix(strings.TrimLeft(s, " \t\n"), thinkOpen) && strings.HasPrefix(text, thinkOpen) {
			t.Fatalf("answer %q still starts with the tag", text)
		}
		if !strings.HasPrefix(strings.TrimLeft(s, " \t\n"), thinkOpen) && strings.TrimLeft(text, " \t\n") != strings.TrimLeft(s, " \t\n") {
			t.Fatalf("text without a leading block changed: %q to %q", s, text)
		}
	})
}
