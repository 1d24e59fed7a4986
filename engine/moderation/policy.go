package moderation

import (
	"regexp"
	"strings"
	"unicode"
)

// policyRules are high-precision phrases that need no model: when one
// matches, the sentence is off-policy whatever the classifier says. The
// classifier covers the wording the rules do not anticipate.
var policyRules = []struct {
	cat   Category
	hints []string // lower-case words one of which must appear before the pattern is tried
	re    *regexp.Regexp
}{
	{PolicyCredTheft, []string{"steal", "harvest", "phish", "capture", "collect", "intercept"},
		regexp.MustCompile(`(?i)\b(steal|harvest|phish|capture|collect|intercept)\w*\b[^.!?\n]{0,40}\b(passwords?|logins?|credentials|one-time codes?|pins?|session cookies?)\b`)},
	{PolicyCredTheft, []string{"fake"}, regexp.MustCompile(`(?i)\bfake (login|sign-in|bank) (page|portal|screen)\b`)},
	{PolicyCredTheft, []string{"take over", "break into", "get into"}, regexp.MustCompile(`(?i)\b(take over|break into|get into)\b[^.!?\n]{0,30}\baccounts?\b`)},
	{PolicyFraud, []string{"stolen", "skimmed"}, regexp.MustCompile(`(?i)\b(stolen|skimmed) (card|cards|card numbers|identity|funds|money)\b`)},
	{PolicyFraud, []string{"launder", "forge", "counterfeit"}, regexp.MustCompile(`(?i)\b(launder|forge|counterfeit)\w*\b`)},
	{PolicyFraud, []string{"fake"}, regexp.MustCompile(`(?i)\bfake (invoice|receipt|identity|names?)\b`)},
	{PolicyAbuse, []string{"worthless", "pathetic", "stupid", "disgusting"}, regexp.MustCompile(`(?i)\b(you are|you're) (a |an )?(worthless|pathetic|stupid|disgusting) ?\w*`)},
	{PolicyAbuse, []string{"hurt", "find"}, regexp.MustCompile(`(?i)\b(i|we) (will|'ll) (hurt|find) you\b`)},
}

// minModelWords is the shortest text the classifier is asked about.
const minModelWords = 6

// detectPolicy appends one span per off-policy sentence of text. The rules
// run once over the whole text (their patterns stay inside a sentence);
// the classifier then reads each sentence no rule caught.
func detectPolicy(c *Classifier, text string, spans []Span) []Span {
	sents := sentences(text)
	ruled := make([]Category, len(sents))
	low := strings.ToLower(text)
	for _, r := range policyRules {
		if !containsAny(low, r.hints) {
			continue
		}
		for _, m := range r.re.FindAllStringIndex(text, -1) {
			if i := sentenceAt(sents, m[0]); i >= 0 && ruled[i] == "" {
				ruled[i] = r.cat
			}
		}
	}
	for i, s := range sents {
		if ruled[i] != "" {
			spans = append(spans, Span{Start: s[0], End: s[1], Category: ruled[i], Detector: "rules"})
			continue
		}
		// A few words (the tail of a sentence cut by a window edge) are
		// too little for the model to judge; measured false alarms on
		// such fragments, not on whole sentences, set this floor.
		if c == nil || len(words(text[s[0]:s[1]])) < minModelWords {
			continue
		}
		if l := c.Predict(text[s[0]:s[1]]); l != labelSafe {
			spans = append(spans, Span{Start: s[0], End: s[1], Category: labelCategory[l], Detector: "bayes"})
		}
	}
	return spans
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// sentenceAt is the index of the sentence holding byte b, or -1.
func sentenceAt(sents [][2]int, b int) int {
	lo, hi := 0, len(sents)
	for lo < hi {
		mid := (lo + hi) / 2
		if sents[mid][1] <= b {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(sents) && sents[lo][0] <= b {
		return lo
	}
	return -1
}

// sentences splits text into sentences: [start, end) byte ranges without
// surrounding space, each ending after its '.', '!' or '?' (or at a line
// break or the end of text). A period inside a number or an address
// (4.5, example.com) does not end a sentence.
func sentences(text string) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if start < 0 {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				start = i
			}
			continue
		}
		end := -1
		switch c {
		case '\n':
			end = i
		case '.', '!', '?':
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n' || text[i+1] == '"' {
				end = i + 1
			}
		}
		if end >= 0 {
			out = append(out, [2]int{start, trimRight(text, start, end)})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, trimRight(text, start, len(text))})
	}
	return out
}

func trimRight(text string, start, end int) int {
	for end > start && (text[end-1] == ' ' || text[end-1] == '\t' || text[end-1] == '\r') {
		end--
	}
	return end
}

func isLetter(r rune) bool { return unicode.IsLetter(r) }
