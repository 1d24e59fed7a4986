package pipeline

import (
	"regexp"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// Guard actions, from least to most severe.
const (
	ActionAllow  = "allow"  // nothing found
	ActionRedact = "redact" // personal data found and masked; the request goes on
	ActionBlock  = "block"  // prompt injection or abuse; the request stops here
)

// Verdict is the input guardrail's decision on one message.
type Verdict struct {
	Action   string
	Reasons  []string // e.g. "injection: ignore … instructions", "pii: email"
	Redacted string   // the text with personal data masked (Action redact)
	// Took is the classifier's own measured time, without any simulated
	// service latency.
	Took time.Duration
}

// Blocked reports whether the request must stop.
func (v Verdict) Blocked() bool { return v.Action == ActionBlock }

// The classifier is rules over the text, fast enough to run on every
// message: phrase patterns for prompt injection, a word list for abuse and
// patterns for personal data (checked with Luhn for card numbers so order
// numbers and phone numbers are not mistaken for cards).
var (
	injectionRules = []struct {
		name  string
		hints []string // cheap substring checks before the regexp runs
		re    *regexp.Regexp
	}{
		{"ignore … instructions", []string{"ignore", "disregard", "forget", "override"}, regexp.MustCompile(`\b(ignore|disregard|forget|override)\b(\s+\w+){0,4}?\s+(instructions?|rules|guidelines|directions|prompts?)\b`)},
		{"reveal the system prompt", []string{"prompt", "instructions"}, regexp.MustCompile(`\b(reveal|print|show|repeat|output|leak|tell me)\b(\s+\w+){0,4}?\s+(system\s+prompt|hidden\s+prompt|initial\s+instructions|instructions above)\b`)},
		{"role override", []string{"you are", "act as", "pretend", "roleplay"}, regexp.MustCompile(`\b(you are now|from now on you are|act as|pretend (to be|you are)|roleplay as)\b(\s+\w+){0,3}?\s*\b(dan|unfiltered|unrestricted|jailbroken|evil|without (any )?(rules|limits|restrictions))\b`)},
		{"jailbreak", []string{"jailbreak", "mode", "anything now"}, regexp.MustCompile(`\b(jailbreak|developer mode|dan mode|do anything now)\b`)},
	}
	// abuseWords are matched as whole words; abuseStems also match as the
	// start of a word; abusePhrases anywhere in the normalised text.
	abuseWords   = map[string]bool{"idiot": true, "idiots": true, "stupid": true, "moron": true, "morons": true, "imbecile": true, "dumbass": true}
	abuseStems   = []string{"fuck", "shit", "bitch", "asshole", "bastard"}
	abusePhrases = []string{"shut up", "useless piece", "i will kill you", "kill yourself"}

	emailRe = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
	cardRe  = regexp.MustCompile(`\b\d(?:[ \-]?\d){12,18}\b`)
	phoneRe = regexp.MustCompile(`(?:\+\d{1,3}[\s.\-]?)?(?:\(\d{2,4}\)[\s.\-]?)?\d{2,4}(?:[\s.\-]?\d{2,4}){2,4}`)
)

// Classify runs the rules over text. clk only measures the time taken.
func Classify(clk clock.Clock, text string) Verdict {
	start := clk.Now()
	v := classify(text)
	v.Took = clk.Now().Sub(start)
	return v
}

func classify(text string) Verdict {
	v := Verdict{Action: ActionAllow}
	norm := strings.ToLower(strings.Join(strings.Fields(text), " "))
	for _, r := range injectionRules {
		if containsAny(norm, r.hints) && r.re.MatchString(norm) {
			v.Reasons = append(v.Reasons, "injection: "+r.name)
		}
	}
	if m := findAbuse(norm); m != "" {
		v.Reasons = append(v.Reasons, "abuse: "+m)
	}
	if len(v.Reasons) > 0 {
		v.Action = ActionBlock
		return v
	}

	redacted, found := redactPII(text)
	if len(found) > 0 {
		v.Action, v.Redacted = ActionRedact, redacted
		for _, f := range found {
			v.Reasons = append(v.Reasons, "pii: "+f)
		}
	}
	return v
}

// redactPII masks e-mail addresses, card numbers and phone numbers, in that
// order so a card is never half-masked as a phone number.
func redactPII(text string) (string, []string) {
	var found []string
	if strings.Contains(text, "@") && emailRe.MatchString(text) {
		text = emailRe.ReplaceAllString(text, "[email]")
		found = append(found, "email")
	}
	if countDigits(text) < 10 { // too few digits for a card or a phone number
		return text, found
	}
	text, cards := replaceStandalone(text, cardRe, "[card]", luhn)
	if cards {
		found = append(found, "card number")
	}
	text, phones := replaceStandalone(text, phoneRe, "[phone]", func(m string) bool {
		n := countDigits(m)
		return n >= 10 && n <= 15
	})
	if phones {
		found = append(found, "phone number")
	}
	return text, found
}

// replaceStandalone masks matches of re that ok accepts and that do not
// sit inside a longer word (a tracking code such as JD0001234567 is not a
// phone number).
func replaceStandalone(text string, re *regexp.Regexp, mask string, ok func(string) bool) (string, bool) {
	var b strings.Builder
	last, any := 0, false
	for _, m := range re.FindAllStringIndex(text, -1) {
		i, j := m[0], m[1]
		if (i > 0 && isWordByte(text[i-1])) || (j < len(text) && isWordByte(text[j])) || !ok(text[i:j]) {
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString(mask)
		last, any = j, true
	}
	b.WriteString(text[last:])
	return b.String(), any
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// findAbuse returns the first abusive word or phrase in normalised text.
func findAbuse(norm string) string {
	for _, p := range abusePhrases {
		if strings.Contains(norm, p) {
			return p
		}
	}
	for _, w := range strings.FieldsFunc(norm, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '\'') }) {
		if abuseWords[w] {
			return w
		}
		for _, st := range abuseStems {
			if strings.HasPrefix(w, st) {
				return w
			}
		}
	}
	return ""
}

func countDigits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// luhn checks the card-number checksum over the digits of s.
func luhn(s string) bool {
	sum, n := 0, 0
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c < '0' || c > '9' {
			continue
		}
		d := int(c - '0')
		if n%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		n++
	}
	return n >= 13 && sum%10 == 0
}
