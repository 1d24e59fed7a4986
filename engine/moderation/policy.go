package moderation

import (
	"regexp"
	"strings"
	"unicode"
)

// people is what abuse is aimed at, in the rules below.
const people = `(customers?|users?|callers?|reviewers?|agents?|drivers?|colleagues?|staff|employees?|victims?|owners?|child|children|kids?|people|person|family|families|them|him|her|you)`

// policyRules are high-precision phrases that need no model: when one
// matches, the sentence is off-policy whatever the classifier says. They
// name the acts themselves (a fake login page, a keylogger, a money mule,
// threats against a person), words that ordinary support and serving text
// never uses (none of them matches the text model's corpus or the help
// articles; see TestPolicyFalseAlarms). The classifier covers the wording
// the rules do not anticipate.
var policyRules = []struct {
	cat   Category
	hints []string // lower-case words one of which must appear before the pattern is tried
	re    *regexp.Regexp
	// advice marks rules whose words also appear in security advice
	// ("we never collect passwords by phone"): a negated sentence does
	// not match them.
	advice bool
}{
	// Credential theft.
	{PolicyCredTheft, []string{"steal", "harvest", "phish", "capture", "collect", "intercept", "grab", "record"},
		regexp.MustCompile(`(?i)\b(steal|harvest|phish|capture|collect|intercept|grab|record)\w*\b[^.!?\n]{0,40}\b(passwords?|logins?|credentials|one-time codes?|pins?|session cookies?)\b`), true},
	{PolicyCredTheft, []string{"fake"}, regexp.MustCompile(`(?i)\bfake (login|log-in|sign-in|bank|banking) (page|portal|screen|form|site)s?\b`), false},
	{PolicyCredTheft, []string{"take over", "break into", "hijack"}, regexp.MustCompile(`(?i)\b(take over|break into|hijack\w*)\b[^.!?\n]{0,30}\baccounts?\b`), false},
	{PolicyCredTheft, []string{"get into"}, regexp.MustCompile(`(?i)\bget into (someone else's|other people's|the victim's|their|his|her) accounts?\b`), false},
	{PolicyCredTheft, []string{"brute", "stuffing", "keylog", "stealer", "sim"},
		regexp.MustCompile(`(?i)\b(brute[- ]?forc\w*|credential stuffing|keylogg\w*|(password|info)[- ]?stealers?|sim[- ]swap\w*|swap\w* (the )?(victim's |customer's |their )?sim)\b`), false},
	{PolicyCredTheft, []string{"crack"}, regexp.MustCompile(`(?i)\bcrack\w* (the |their )?(password|hash|pin)\w*`), false},
	{PolicyCredTheft, []string{"read out", "read back"}, regexp.MustCompile(`(?i)\bread (out|back)\b[^.!?\n]{0,30}\b(codes?|passwords?|pins?)\b`), true},
	{PolicyCredTheft, []string{" in as"}, regexp.MustCompile(`(?i)\b(sign|log)\w* in as (the customer|the victim|someone else|another (user|customer)|them|him|her)\b`), false},
	{PolicyCredTheft, []string{"leaked", "stolen", "cracked"}, regexp.MustCompile(`(?i)\b(leaked|stolen|cracked) (passwords?|credentials|logins?)\b`), false},
	// Fraud.
	{PolicyFraud, []string{"stolen", "skimmed", "cloned"}, regexp.MustCompile(`(?i)\b(stolen|skimmed|cloned) (card numbers|card details|funds|money|identit(y|ies)|goods)\b`), false},
	{PolicyFraud, []string{"stolen", "skimmed", "cloned"},
		regexp.MustCompile(`(?i)\b(with|use|using|used|buy\w*|sell\w*|run|running|try|trying|spend\w*|cash\w*( out)?) (the |a |those |these |some )?(stolen|skimmed|cloned) cards?\b`), false},
	{PolicyFraud, []string{"launder", "forge", "counterfeit"}, regexp.MustCompile(`(?i)\b(launder\w*|forg(e|es|ed|ing|ery|eries)|counterfeit\w*)\b`), false},
	{PolicyFraud, []string{"fake"}, regexp.MustCompile(`(?i)\bfake (invoices?|receipts?|identit(y|ies)|names?|charit(y|ies)|prizes?|lotter(y|ies)|reviews?|shops?|stores?|websites?|repairs?)\b`), false},
	{PolicyFraud, []string{"mule"}, regexp.MustCompile(`(?i)\bmoney mules?\b`), false},
	{PolicyFraud, []string{"bounce"}, regexp.MustCompile(`(?i)\bcheques? (that |which )?(you know )?(will |would )?bounce\b`), false},
	{PolicyFraud, []string{"look-alike", "lookalike"}, regexp.MustCompile(`(?i)\blook-?alike (domains?|sites?|pages?|emails?|e-mails?)\b`), false},
	{PolicyFraud, []string{"reporting"}, regexp.MustCompile(`(?i)\bunder the reporting (limit|threshold)\b`), false},
	{PolicyFraud, []string{"own account", "goes to you"}, regexp.MustCompile(`(?i)\b((money|funds|payments?|refunds?) (goes|go|comes|come) to you|(into|to) your own (bank )?account)\b`), false},
	// Abuse.
	{PolicyAbuse, []string{"worthless", "pathetic", "stupid", "disgusting", "useless", "dumb"},
		regexp.MustCompile(`(?i)\b(you are|you're|they are|they're|he is|she is) (a |an |so |too )?(worthless|pathetic|stupid|disgusting|useless|dumb)\b`), false},
	{PolicyAbuse, []string{"hurt", "find", "kill"}, regexp.MustCompile(`(?i)\b(i|we) (will|'ll) (hurt|find|kill) you\b`), false},
	{PolicyAbuse, []string{"idiot", "moron", "scum", "imbecile"}, regexp.MustCompile(`(?i)\b(idiots?|morons?|scum|imbeciles?)\b`), false},
	{PolicyAbuse, []string{"curse", "swear", "shout", "yell", "scream"}, regexp.MustCompile(`(?i)\b(curse|cursing|swear|swearing|shout|shouting|yell|yelling|scream|screaming)\w* at\b`), false},
	{PolicyAbuse, []string{"insult", "mock", "humiliat", "harass", "bull", "stalk", "threaten", "intimidat", "belittl", "dox"},
		regexp.MustCompile(`(?i)\b(insult|mock|humiliat|harass|bull(y|ies|ied)|stalk|threaten|intimidat|belittl|dox)\w*\b[^.!?\n]{0,30}\b` + people + `\b`), false},
}

// negation marks a sentence as advice against the act rather than the act.
var negation = regexp.MustCompile(`(?i)\b(never|not|don't|do not|doesn't|won't|no one|nobody)\b`)

// Evidence floors for the model. A whole sentence needs minModelWords
// words; a fragment (a sentence cut by a window edge: it starts in lower
// case or ends without its full stop) needs minFragmentWords and
// fragmentEvidence more words leaning unsafe than the classifier's
// MinEvidence, because half a sentence loses the words that said what it
// was about ("Dirt and skin oils block the membrane … even when" read as
// abuse until this floor). A window that cuts an unsafe sentence still has
// the whole sentence in the next window's overlap.
const (
	minModelWords    = 6
	minFragmentWords = 10
	fragmentEvidence = 2
)

// isFragment reports whether sentence s was cut by a window's edges: it
// starts with a lower-case letter or a comma, or it is the last of the
// text and lacks closing punctuation.
func isFragment(s string, last bool) bool {
	if s == "" {
		return false
	}
	if c := s[0]; c >= 'a' && c <= 'z' || c == ',' || c == ';' {
		return true
	}
	if !last {
		return false
	}
	t := strings.TrimRight(s, "\"')")
	if t == "" {
		return false
	}
	switch t[len(t)-1] {
	case '.', '!', '?', ':':
		return false
	}
	return true
}

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
			i := sentenceAt(sents, m[0])
			if i < 0 || ruled[i] != "" {
				continue
			}
			if r.advice && negation.MatchString(text[sents[i][0]:sents[i][1]]) {
				continue
			}
			ruled[i] = r.cat
		}
	}
	for i, s := range sents {
		if ruled[i] != "" {
			spans = append(spans, Span{Start: s[0], End: s[1], Category: ruled[i], Detector: "rules"})
			continue
		}
		if c == nil {
			continue
		}
		sent := text[s[0]:s[1]]
		minWords, extra := minModelWords, 0
		if isFragment(sent, i == len(sents)-1) {
			minWords, extra = minFragmentWords, fragmentEvidence
		}
		if len(words(sent)) < minWords {
			continue
		}
		if l := c.predict(sent, extra); l != labelSafe {
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
