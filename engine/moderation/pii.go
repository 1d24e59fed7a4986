package moderation

import (
	"regexp"
	"strings"
)

// Personal data is found in two passes. E-mail addresses and IBANs have
// letters and their own shapes; everything else is a run of digits with
// separators, which is classified as a whole (a card, a phone number or
// nothing) so that one number is never reported twice as two things.
var (
	emailRe = regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9._%+\-]*@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}`)
	// An IBAN: country code, two check digits, then up to 30 letters or
	// digits, printed in groups of four or run together.
	ibanRe = regexp.MustCompile(`\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b`)
	// A digit run: digits joined by spaces, dots, dashes and brackets,
	// with an optional leading plus.
	runRe = regexp.MustCompile(`\+?\(?[0-9](?:[0-9 .\-()]*[0-9])?`)
	// usPhoneRe is the North American layout: (415) 555-0123,
	// 415-555-0123, 415.555.0123, +1 415 555 0123.
	usPhoneRe = regexp.MustCompile(`^(?:\+?1[ .\-]?)?(?:\([0-9]{3}\)|[0-9]{3})[ .\-]?[0-9]{3}[ .\-]?[0-9]{4}$`)
)

// detectPII appends the personal data found in text to spans.
func detectPII(text string, spans []Span) []Span {
	first := len(spans)
	if strings.IndexByte(text, '@') >= 0 {
		for _, m := range emailRe.FindAllStringIndex(text, -1) {
			spans = append(spans, Span{Start: m[0], End: m[1], Category: PIIEmail, Detector: "regex"})
		}
	}
	for _, m := range ibanRe.FindAllStringIndex(text, -1) {
		if ibanValid(text[m[0]:m[1]]) {
			spans = append(spans, Span{Start: m[0], End: m[1], Category: PIIIBAN, Detector: "mod97"})
		}
	}
	for _, m := range runRe.FindAllStringIndex(text, -1) {
		start, end := m[0], m[1]
		// A run glued to letters is part of a code (JD0001234567), not a
		// number someone would read out; and an IBAN was handled above.
		if touchesWord(text, start, end) || overlaps(spans[first:], start, end) {
			continue
		}
		run := text[start:end]
		digits := onlyDigits(run)
		switch {
		case len(digits) >= 13 && len(digits) <= 19 && !strings.ContainsAny(run, "+()") && luhnValid(digits):
			spans = append(spans, Span{Start: start, End: end, Category: PIICard, Detector: "luhn"})
		case isPhone(run, len(digits)):
			spans = append(spans, Span{Start: start, End: end, Category: PIIPhone, Detector: "regex"})
		}
	}
	return spans
}

// overlaps reports whether [start, end) overlaps one of spans.
func overlaps(spans []Span, start, end int) bool {
	for _, s := range spans {
		if start < s.End && s.Start < end {
			return true
		}
	}
	return false
}

// isPhone accepts an international number (a leading plus and 8 to 15
// digits, E.164's limit) or a North American one.
func isPhone(run string, digits int) bool {
	if strings.HasPrefix(run, "+") && digits >= 8 && digits <= 15 {
		return true
	}
	return usPhoneRe.MatchString(run)
}

// touchesWord reports whether text[start:end] has a letter, digit or
// underscore right before or after it.
func touchesWord(text string, start, end int) bool {
	return (start > 0 && isWordByte(text[start-1])) || (end < len(text) && isWordByte(text[end]))
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func onlyDigits(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// luhnValid is the Luhn checksum every payment card number satisfies: from
// the right, double every second digit (subtracting 9 above 9), and the sum
// is a multiple of 10. digits must hold only ASCII digits.
func luhnValid(digits string) bool {
	if len(digits) < 2 {
		return false
	}
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// ibanValid is ISO 13616's check: move the first four characters to the
// end, turn letters into numbers (A=10 … Z=35), and the number mod 97 is 1.
func ibanValid(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	if len(s) < 15 || len(s) > 34 {
		return false
	}
	rem := 0
	for _, c := range s[4:] + s[:4] {
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return rem == 1
}
