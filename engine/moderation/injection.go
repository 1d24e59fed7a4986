package moderation

import "regexp"

// injectionRules are the phrasings of prompt-injection attempts: telling
// the model to drop its instructions, reveal them, or become something
// without rules. Each match is reported as its own span.
var injectionRules = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override)\b(\s+\w+){0,4}?\s+(instructions?|rules|guidelines|directions|prompts?)\b`),
	regexp.MustCompile(`(?i)\b(reveal|print|show|repeat|output|leak)\b(\s+\w+){0,4}?\s+(system\s+prompt|hidden\s+prompt|initial\s+instructions|instructions above)\b`),
	regexp.MustCompile(`(?i)\b(you are now|from now on you are|act as|pretend (to be|you are)|roleplay as)\b(\s+\w+){0,3}?\s*\b(dan|unfiltered|unrestricted|jailbroken|evil|without (any )?(rules|limits|restrictions))\b`),
	regexp.MustCompile(`(?i)\b(jailbreak|developer mode|dan mode|do anything now)\b`),
}

// detectInjection appends prompt-injection phrases found in text.
func detectInjection(text string, spans []Span) []Span {
	for _, re := range injectionRules {
		for _, m := range re.FindAllStringIndex(text, -1) {
			spans = append(spans, Span{Start: m[0], End: m[1], Category: Injection, Detector: "rules"})
		}
	}
	return spans
}
