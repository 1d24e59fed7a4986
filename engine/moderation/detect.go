package moderation

// Kinds selects detectors; combine with |.
type Kinds uint8

// Detector kinds.
const (
	KindPII       Kinds = 1 << iota // e-mail, phone, card (Luhn), IBAN (mod 97)
	KindPolicy                      // rules and the naive Bayes classifier, per sentence
	KindInjection                   // prompt-injection phrases

	// OutputKinds are the checks on a model's answer.
	OutputKinds = KindPII | KindPolicy
	// PromptKinds are the checks on a user's message before generation.
	PromptKinds = KindInjection | KindPolicy
)

// Detect runs the chosen detectors over text with classifier c (nil skips
// the statistical model; rules still run) and returns what they found,
// sorted. It is pure and fast: no clock, no latency.
func Detect(c *Classifier, text string, kinds Kinds) Result {
	var spans []Span
	if kinds&KindPII != 0 {
		spans = detectPII(text, spans)
	}
	if kinds&KindPolicy != 0 {
		spans = detectPolicy(c, text, spans)
	}
	if kinds&KindInjection != 0 {
		spans = detectInjection(text, spans)
	}
	return result(text, spans)
}
