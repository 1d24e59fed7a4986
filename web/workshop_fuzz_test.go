package web

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzJoinInput feeds the join form's two parsers anything: a cleaned name
// is valid UTF-8, within the limit, trimmed and free of control
// characters; a normalised code is valid only when made of the alphabet.
func FuzzJoinInput(f *testing.F) {
	for _, seed := range []string{"", "  Ana  ", "abc-234", "ABC 234", "\x00\r\n", "<script>alert(1)</script>", "é\u2028x", "\xff\xfe", strings.Repeat("w", 200)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		name, problem := cleanText(in, 40, "Your name")
		if (name == "") == (problem == "") {
			t.Fatalf("cleanText(%q) = %q, %q: want exactly one of a name or a problem", in, name, problem)
		}
		if name != "" {
			if !utf8.ValidString(name) || utf8.RuneCountInString(name) > 40 || strings.TrimSpace(name) != name ||
				strings.ContainsAny(name, "\x00\r\n\t") || strings.Contains(name, "  ") {
				t.Fatalf("cleanText(%q) = %q: not clean", in, name)
			}
		}
		code := normalizeCode(in)
		if validCode(code) {
			for _, r := range code {
				if !strings.ContainsRune(codeAlphabet, r) {
					t.Fatalf("code %q from %q passed with %q", code, in, r)
				}
			}
		}
	})
}

func TestCodesAndSecrets(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		c := newWorkshopCode()
		if !validCode(c) || strings.ContainsAny(c, "0O1I") {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
	if len(seen) < 999 {
		t.Errorf("%d distinct codes in 1000 draws", len(seen))
	}
	sec := newInstructorSecret()
	if len(sec) != 22 { // 128 bits in base64url
		t.Fatalf("secret %q: want 22 characters (128 bits)", sec)
	}
	h := hashSecret(sec)
	for _, tc := range []struct {
		give, hash string
		want       bool
	}{
		{sec, h, true},
		{sec + "x", h, false},
		{"", hashSecret(""), false},
		{sec, "not hex", false},
	} {
		if got := secretMatches(tc.give, tc.hash); got != tc.want {
			t.Errorf("secretMatches(%q, %q) = %v, want %v", tc.give, tc.hash, got, tc.want)
		}
	}
	if len(codeAlphabet) != 32 {
		t.Errorf("alphabet has %d symbols; 32 keeps the draw unbiased", len(codeAlphabet))
	}
}
