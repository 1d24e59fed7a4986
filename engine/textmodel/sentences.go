package textmodel

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sentence is one candidate sentence of an answer, with the content words
// the ranking compares against the question.
type sentence struct {
	text  string   // trimmed, single-spaced, ends with terminal punctuation
	words []string // distinct content words, lower-cased and lightly stemmed
	// topic tells the bundled corpus's sections apart (sentences under the
	// same "# Heading" share it); 0 for a request's own context.
	topic int
}

// splitSentences cuts free text (retrieved chunks, system prompts, tool
// output) into readable sentences. Lines are split first, because list items
// and headings rarely end with a full stop; headings, table rows, code and
// lines ending in a colon are dropped, since they read badly inside a
// paragraph.
func splitSentences(text string) []sentence {
	var out []sentence
	for line := range strings.Lines(text) {
		line = stripListMarker(strings.TrimSpace(line))
		if line == "" || looksTabular(line) {
			continue
		}
		for _, s := range splitLine(line) {
			s = normalizeSpace(s)
			if !readable(s) {
				continue
			}
			out = append(out, sentence{text: s, words: contentWords(s)})
		}
	}
	return out
}

// splitLine cuts one line after each . ! or ? (plus closing quotes or
// brackets) that is followed by a space and an upper-case letter, digit or
// opening quote, unless the full stop ends a known abbreviation or an
// initial; and after each full-width 。！？, which need no space.
func splitLine(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(line[i:])
			if strings.ContainsRune(fullWidthEnds, r) {
				out = append(out, line[start:i+n])
				start = i + n
			}
			i += n - 1
			continue
		}
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		end := i + 1
		for end < len(line) && strings.IndexByte(`"')]`, line[end]) >= 0 {
			end++
		}
		if end >= len(line) || line[end] != ' ' {
			continue
		}
		next := strings.TrimLeft(line[end:], " ")
		if next == "" {
			continue
		}
		r, _ := utf8.DecodeRuneInString(next)
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && !strings.ContainsRune(`"'(`, r) {
			continue
		}
		if c == '.' && isAbbreviation(line[start:i]) {
			continue
		}
		out = append(out, line[start:end])
		start = end
		i = end - 1
	}
	return append(out, line[start:])
}

// abbreviations end with a full stop that does not end a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "mr": true, "mrs": true,
	"ms": true, "dr": true, "prof": true, "fig": true, "approx": true,
	"no": true, "st": true, "inc": true, "ltd": true, "cf": true, "al": true,
}

func isAbbreviation(before string) bool {
	word := before[strings.LastIndexByte(before, ' ')+1:]
	word = strings.ToLower(strings.TrimLeft(word, `("'`))
	return abbreviations[word] || utf8.RuneCountInString(word) == 1
}

// stripListMarker removes a leading bullet, number or heading marker.
func stripListMarker(line string) string {
	switch {
	case strings.HasPrefix(line, "#"):
		return "" // Markdown heading
	case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "), strings.HasPrefix(line, "• "):
		_, rest, _ := strings.Cut(line, " ")
		return strings.TrimSpace(rest)
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && line[i+1] == ' ' {
		return strings.TrimSpace(line[i+2:])
	}
	return line
}

// looksTabular reports table rows, code and diagrams: they carry facts but
// do not read as prose.
func looksTabular(line string) bool {
	return strings.ContainsAny(line, "\t|{}`") || strings.Contains(line, "->") ||
		strings.Contains(line, "   ") || strings.HasPrefix(line, ">")
}

// normalizeSpace trims s and collapses runs of whitespace to one space, so
// sentences join cleanly and tokenize the same alone or in an answer.
func normalizeSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// fullWidthEnds end sentences in Chinese and Japanese text.
const fullWidthEnds = "。！？"

// readable keeps sentences of at least three words ("Items: two mugs." from
// an order lookup is worth keeping), or six characters of unspaced CJK
// text, that start and end like a sentence.
func readable(s string) bool {
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, `"')]`))
	switch {
	case strings.ContainsRune(fullWidthEnds, last):
		if utf8.RuneCountInString(s) < 6 {
			return false
		}
	case last == '.' || last == '!' || last == '?':
		if len(s) < 10 || strings.Count(s, " ") < 2 {
			return false
		}
	default:
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return (unicode.IsLetter(r) && !unicode.IsLower(r)) || unicode.IsDigit(r) || strings.ContainsRune(`"'(`, r)
}

// contentWords returns the distinct content words of s: lower-cased letter
// and digit runs, minus stop words, with endings folded by stem. Chinese and
// Japanese are written without spaces, so runs of their characters give
// overlapping character pairs instead, the usual unit for matching them.
func contentWords(s string) []string {
	var out []string
	add := func(w string) {
		// A linear scan beats a map for sentence-sized word lists.
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			for _, pair := range runePairs(w) {
				add(pair)
			}
			continue
		}
		w = strings.ToLower(w)
		if stopWords[w] {
			continue
		}
		w = stem(w)
		if len(w) < 2 || stopWords[w] {
			continue
		}
		add(w)
	}
	return out
}

// runePairs returns the overlapping two-character substrings of w, or w
// itself when it is a single character.
func runePairs(w string) []string {
	var out []string
	for i, r := range w {
		n := utf8.RuneLen(r)
		if i+n >= len(w) {
			break
		}
		_, m := utf8.DecodeRuneInString(w[i+n:])
		out = append(out, w[i:i+n+m])
	}
	if out == nil {
		out = []string{w}
	}
	return out
}

// stem folds plural, -ing, -ed and -ion endings and a final e, so
// "batches" meets "batch", "caching" meets "cache" and "moderation" meets
// "moderate". It only has to make question and context words meet, not be
// linguistically right; stems shorter than three letters are not cut.
func stem(w string) string {
	cut := func(suffix, repl string) bool {
		if !strings.HasSuffix(w, suffix) || len(w)-len(suffix)+len(repl) < 3 {
			return false
		}
		w = w[:len(w)-len(suffix)] + repl
		return true
	}
	switch {
	case cut("ies", "y"), cut("sses", "ss"), cut("ches", "ch"), cut("shes", "sh"):
	case !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		cut("s", "")
	}
	_ = cut("ing", "") || cut("ed", "") || cut("ion", "")
	cut("e", "")
	return w
}

// stopWords carry no topic, so they must not make a sentence look relevant.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again all also am an and any are as at be
		because been before being below between both but by can could did do doe does doing down
		during each few for from further had ha has have having he her here hers him his how i if in
		into is it its itself just me more most my no nor not now of off on once only or other our
		out over own same she should so some such than that the their them then there these they
		this those through to too under until up very wa was we were what when where which while
		who whom why will with would you your yours please tell explain thank thanks hi hello
		hey know like want need get got make one two use used using ok okay work works
		happen happens mean means`) {
		m[w] = true
	}
	return m
}()

// instructionStarts open sentences that address the model ("You are a
// helpful assistant.", "Answer briefly."): they steer an answer but do not
// belong in one.
var instructionStarts = map[string]bool{
	"you": true, "you're": true, "answer": true, "respond": true,
	"reply": true, "always": true, "never": true, "do": true, "don't": true,
	"be": true, "keep": true, "use": true, "cite": true,
	"act": true, "write": true, "avoid": true, "follow": true,
}

func isInstruction(s string) bool {
	first, _, _ := strings.Cut(s, " ")
	first = strings.ToLower(strings.Trim(first, `"'(,:;`))
	return instructionStarts[first]
}
