package moderation

import "strings"

// features are the distinct stemmed, lower-cased words of text (a word
// said twice is no more evidence in a line this short; counting it once
// caught a little more on held-out lines). Word pairs are left out: on a few hundred lines nearly every pair is seen once, and such
// features made the model confident about coincidences. Function words
// stay: "you" and "your" are much of what tells an instruction to harm
// someone from a description of a policy (dropping them halved recall).
func features(text string) []string {
	ws := words(text)
	seen := make(map[string]bool, len(ws))
	out := ws[:0]
	for _, w := range ws {
		w = stem(w)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// stem strips one common English ending so that "passwords", "stealing"
// and "stolen" meet their stems more often; crude, but applied the same
// way in training and use.
func stem(w string) string {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
	for _, suf := range []string{"ing", "ed", "es", "s", "ly"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// words splits text into lower-case runs of letters, digits and
// apostrophes (ASCII letters folded; other letters kept as they are).
func words(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range text {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '\'', r > 127 && isLetter(r):
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}
