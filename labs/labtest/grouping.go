package labtest

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// longNumber is a run of four or more digits: a figure that needs its
// thousands grouped ("1,000 tokens", never "1000 tokens").
var longNumber = regexp.MustCompile(`\d{4,}`)

// partOfAName are the characters that, just before a run of digits, make
// it part of something other than a figure: a decimal's fraction
// ("0.0125"), a grouped number, an id ("#1042", "NW-10452", a phone
// number), a port or clock time (":8080"), a path or query ("/runs/1234",
// "seed=1234").
const partOfAName = ".,#:/=_"

// UngroupedNumbers returns the figures in s written with four or more
// digits and no thousands separator. Digits inside a word ("H100",
// "p9999", "Llama-3.1-8B"), after a decimal point, in an id, port, path or
// query, and a year standing alone ("in 2024.") are not figures and pass;
// so does a built-in model or GPU name.
func UngroupedNumbers(s string) []string {
	s = withoutNames(s)
	var out []string
	for _, m := range longNumber.FindAllStringIndex(s, -1) {
		if inName(s, m[0], m[1]) || isYear(s, m[0], m[1]) {
			continue
		}
		out = append(out, s[m[0]:m[1]])
	}
	return out
}

// catalogueNames are the built-in models' and GPUs' names, which may hold
// digits that are not figures.
var catalogueNames = append(engine.ModelNames(), engine.HardwareNames()...)

func withoutNames(s string) string {
	for _, n := range catalogueNames {
		s = replaceFold(s, n, "name")
	}
	return s
}

// replaceFold replaces every case-insensitive occurrence of old in s.
func replaceFold(s, old, repl string) string {
	lower, lowOld := strings.ToLower(s), strings.ToLower(old)
	if len(lower) != len(s) || !strings.Contains(lower, lowOld) {
		return s // nothing to do, or a case change moved the bytes
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, lowOld)
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i] + repl)
		s, lower = s[i+len(old):], lower[i+len(old):]
	}
}

// inName reports whether the digits s[i:j] sit inside a word, an id or a
// decimal rather than standing as a figure.
func inName(s string, i, j int) bool {
	if j < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[j:]); unicode.IsLetter(r) || r == '_' {
			return true // "2048x", "4096MiB": a name or a code
		}
	}
	if i == 0 {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	switch {
	case unicode.IsLetter(before) || strings.ContainsRune(partOfAName, before):
		return true
	case before == '-' || before == '+': // a sign, unless it joins a name's parts: "NW-10452"
		prev, _ := utf8.DecodeLastRuneInString(s[:i-1])
		return i > 1 && (unicode.IsLetter(prev) || unicode.IsDigit(prev))
	}
	return false
}

// isYear reports whether s[i:j] is a year standing alone: four digits
// from 1900 to 2099 not followed by a word, as a count is ("2000 tokens").
func isYear(s string, i, j int) bool {
	if j-i != 4 || !(strings.HasPrefix(s[i:], "19") || strings.HasPrefix(s[i:], "20")) {
		return false
	}
	rest := strings.TrimPrefix(s[j:], " ")
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || (rest != s[j:] && unicode.IsUpper(r)) || (rest == s[j:] && !unicode.IsDigit(r))
}

// CheckGrouping fails t for every figure of f (its visible text and its
// stats' explanations) written with four or more digits ungrouped, which
// would sit beside the stat cards' "1,000".
func CheckGrouping(t testing.TB, name string, f labs.Frame) {
	t.Helper()
	texts := VisibleText(f)
	for _, s := range f.Stats {
		texts = append(texts, s.Why)
	}
	for _, s := range texts {
		if bad := UngroupedNumbers(s); len(bad) > 0 {
			t.Errorf("%s: %q writes %s without grouping its thousands", name, s, strings.Join(bad, ", "))
		}
	}
}
