package kb

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chunk sizes, in estimated tokens (see EstimateTokens). A passage is one to
// MaxSentences sentences of one paragraph: small enough that top-k retrieval
// is selective, large enough that a passage reads on its own.
const (
	MaxSentences = 3
	MaxTokens    = 90
	MinTokens    = 30 // a shorter passage is merged into its neighbour if that fits
)

// EstimateTokens approximates a BPE token count for English prose (about four
// bytes a token). The chunker only needs a stable, deterministic size; the
// pipeline counts real tokens when it assembles the prompt.
func EstimateTokens(s string) int {
	return (len(s) + 3) / 4
}

// passage is a chunk being built: its text and how many sentences it holds.
type passage struct {
	text      string
	sentences int
}

// chunkBlock cuts one paragraph (its lines) into passages at sentence
// boundaries. Each list item counts as one sentence.
func chunkBlock(lines []string) []passage {
	var sentences []string
	if isList(lines) {
		for _, l := range lines {
			sentences = append(sentences, strings.TrimSpace(strings.TrimLeft(l, "-* ")))
		}
	} else {
		sentences = Sentences(strings.Join(lines, " "))
	}
	var out []passage
	var cur []string
	for _, s := range sentences {
		if len(cur) > 0 && (len(cur) == MaxSentences || EstimateTokens(strings.Join(cur, " "))+1+EstimateTokens(s) > MaxTokens) {
			out = append(out, passage{strings.Join(cur, " "), len(cur)})
			cur = nil
		}
		cur = append(cur, s)
	}
	if len(cur) > 0 {
		out = append(out, passage{strings.Join(cur, " "), len(cur)})
	}
	return out
}

func isList(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "* ") {
			return false
		}
	}
	return len(lines) > 0
}

// mergeSmall joins a passage shorter than MinTokens with its neighbour when
// the result stays within MaxTokens and MaxSentences, so a one-line paragraph
// does not become a passage too thin to be useful.
func mergeSmall(ps []passage) []string {
	var out []passage
	for _, p := range ps {
		if n := len(out); n > 0 {
			prev := out[n-1]
			small := EstimateTokens(p.text) < MinTokens || EstimateTokens(prev.text) < MinTokens
			if small && prev.sentences+p.sentences <= MaxSentences &&
				EstimateTokens(prev.text)+1+EstimateTokens(p.text) <= MaxTokens {
				out[n-1] = passage{prev.text + " " + p.text, prev.sentences + p.sentences}
				continue
			}
		}
		out = append(out, p)
	}
	texts := make([]string, len(out))
	for i, p := range out {
		texts[i] = p.text
	}
	return texts
}

// abbreviations end with a full stop but do not end a sentence.
var abbreviations = map[string]bool{
	"e.g.": true, "i.e.": true, "etc.": true, "vs.": true, "approx.": true,
	"mr.": true, "mrs.": true, "ms.": true, "dr.": true, "st.": true, "no.": true,
	"a.m.": true, "p.m.": true, "u.s.": true, "inc.": true,
}

// Sentences splits prose at ".", "!" or "?" (optionally followed by a closing
// quote or bracket) when whitespace and then an upper-case letter, digit or
// opening quote follow, except after a known abbreviation. Whitespace inside a
// sentence is collapsed to single spaces.
func Sentences(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	start := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if r != '.' && r != '!' && r != '?' {
			continue
		}
		end := i
		for end < len(text) && strings.ContainsRune(`"')]”’`, rune(text[end])) {
			end++
		}
		if end >= len(text) || text[end] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(text[end+1:])
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune(`"'“‘(`, next) {
			continue
		}
		if r == '.' && abbreviations[strings.ToLower(lastWord(text[start:i]))] {
			continue
		}
		out = append(out, text[start:end])
		start = end + 1
		i = start
	}
	if rest := strings.TrimSpace(text[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

func lastWord(s string) string {
	if j := strings.LastIndexByte(s, ' '); j >= 0 {
		return s[j+1:]
	}
	return s
}
