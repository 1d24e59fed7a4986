package moderation

import (
	"regexp"
	"unicode"
)

// policyRules are high-precision phrases that need no model: when one
// matches, the sentence is off-policy whatever the classifier says. The
// classifier covers the wording the rules do not anticipate.
var policyRules = []struct {
	cat Category
	re  *regexp.Regexp
}{
	{PolicyCredTheft, regexp.MustCompile(`(?i)\b(steal|harvest|phish|capture|collect|intercept)\w*\b[^.!?\n]{0,40}\b(passwords?|logins?|credentials|one-time codes?|pins?|session cookies?)\b`)},
	{PolicyCredTheft, regexp.MustCompile(`(?i)\bfake (login|sign-in|bank) (page|portal|screen)\b`)},
	{PolicyCredTheft, regexp.MustCompile(`(?i)\b(take over|break into|get into)\b[^.!?\n]{0,30}\baccounts?\b`)},
	{PolicyFraud, regexp.MustCompile(`(?i)\b(stolen|skimmed) (card|cards|card numbers|identity|funds|money)\b`)},
	{PolicyFraud, regexp.MustCompile(`(?i)\b(launder|forge|counterfeit)\w*\b`)},
	{PolicyFraud, regexp.MustCompile(`(?i)\bfake (invoice|receipt|identity|names?)\b`)},
	{PolicyAbuse, regexp.MustCompile(`(?i)\b(you are|you're) (a |an )?(worthless|pathetic|stupid|disgusting) ?\w*`)},
	{PolicyAbuse, regexp.MustCompile(`(?i)\b(i|we) (will|'ll) (hurt|find) you\b`)},
}

// detectPolicy appends one span per off-policy sentence of text.
func detectPolicy(c *Classifier, text string, spans []Span) []Span {
	for _, s := range sentences(text) {
		sent := text[s[0]:s[1]]
		found := false
		for _, r := range policyRules {
			if r.re.MatchString(sent) {
				spans = append(spans, Span{Start: s[0], End: s[1], Category: r.cat, Detector: "rules"})
				found = true
				break
			}
		}
		if found || c == nil {
			continue
		}
		if l := c.Predict(sent); l != labelSafe {
			spans = append(spans, Span{Start: s[0], End: s[1], Category: labelCategory[l], Detector: "bayes"})
		}
	}
	return spans
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
