package textmodel

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// texts exercise ASCII, accents, emoji (including joined sequences), CJK,
// right-to-left script, whitespace runs and marker-like text.
var texts = map[string]string{
	"empty":     "",
	"ascii":     "Prefill is compute-bound; decode is memory-bound.",
	"accents":   "Crème brûlée, naïve café, Łódź, São Paulo, Ærøskøbing.",
	"emoji":     "Streaming feels fast 🚀🔥 and the family 👨‍👩‍👧‍👦 agrees 👍🏽!",
	"cjk":       "大型语言模型的首个令牌延迟。日本語のテキスト、한국어 문장.",
	"arabic":    "زمن الاستجابة الأول مهم جدا",
	"spaces":    "  leading\n\n\ttabs   and  runs  \r\n",
	"markers":   "<|eot_id|><|start_header_id|>system<|end_header_id|>",
	"numbers":   "1234567 tokens at 3.14159 tok/s, 10,000 requests",
	"mixed":     "TTFT≈200ms → 🙂 ok … “quotes” — dash",
	"combining": "e\u0301 a\u0308 n\u0303 (decomposed accents)",
}

func TestRoundTrip(t *testing.T) {
	for name, s := range texts {
		t.Run(name, func(t *testing.T) {
			ids := Encode(s)
			if got := Decode(ids); got != s {
				t.Fatalf("Decode(Encode(s)) = %q, want %q", got, s)
			}
			if got := Count(s); got != len(ids) {
				t.Errorf("Count = %d, len(Encode) = %d", got, len(ids))
			}
			pieces := Pieces(ids)
			if len(pieces) != len(ids) {
				t.Fatalf("len(Pieces) = %d, want %d", len(pieces), len(ids))
			}
			if got := strings.Join(pieces, ""); got != s {
				t.Fatalf("joined pieces = %q, want %q", got, s)
			}
			for i, p := range pieces {
				if !utf8.ValidString(p) {
					t.Errorf("piece %d = %q is not valid UTF-8", i, p)
				}
			}
		})
	}
}

// TestPiecesHoldSplitCharacters checks that byte-level tokens splitting a
// character yield empty pieces until the character is complete.
func TestPiecesHoldSplitCharacters(t *testing.T) {
	for _, s := range []string{"👨‍👩‍👧‍👦", "🚀", "語", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢"} {
		ids := Encode(s)
		pieces := Pieces(ids)
		empty := 0
		for _, p := range pieces {
			if p == "" {
				empty++
			}
		}
		if len(ids) > utf8.RuneCountInString(s) && empty == 0 {
			t.Errorf("%q: %d tokens for %d runes but no held-back piece: %q", s, len(ids), utf8.RuneCountInString(s), pieces)
		}
		if strings.Join(pieces, "") != s {
			t.Errorf("%q: pieces %q do not rebuild the text", s, pieces)
		}
	}
}

func TestDecodeBadIDs(t *testing.T) {
	rocket := Encode("🚀")
	if len(rocket) < 2 {
		t.Fatalf("want 🚀 split over several byte tokens, got %v", rocket)
	}
	// Followed by other text, each byte of a partial character becomes one
	// U+FFFD; at the end of the ids it is held back and dropped.
	partial := strings.Repeat("\uFFFD", len(shared.load().bytesOf(rocket[0])))
	tests := []struct {
		name string
		ids  []int
		want string
	}{
		{"negative", []int{-1}, "\uFFFD"},
		{"beyond vocabulary", []int{1 << 30}, "\uFFFD"},
		{"vocabulary hole", []int{100256}, "\uFFFD"},
		{"marker", []int{EndOfTurn}, "<|eot_id|>"},
		{"cut inside a character", rocket[:1], ""},
		{"cut inside the last character", append(Encode("ok "), rocket[:len(rocket)-1]...), "ok "},
		{"truncated then text", append(slices.Clone(rocket[:1]), Encode("ok")...), partial + "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decode(tt.ids)
			if !utf8.ValidString(got) {
				t.Fatalf("Decode = %q is not valid UTF-8", got)
			}
			if got != tt.want {
				t.Errorf("Decode = %q, want %q", got, tt.want)
			}
			if joined := strings.Join(Pieces(tt.ids), ""); joined != got {
				t.Errorf("joined pieces = %q, Decode = %q", joined, got)
			}
		})
	}
}

func TestEncodeInvalidUTF8(t *testing.T) {
	s := "ok\xffbad\xe2\x82"
	ids := Encode(s)
	if got, want := Decode(ids), "ok\uFFFDbad\uFFFD\uFFFD"; got != want {
		t.Errorf("Decode(Encode(%q)) = %q, want %q", s, got, want)
	}
}

func TestEncodeMarkersAreText(t *testing.T) {
	for _, id := range Encode(texts["markers"]) {
		if id >= bpeTokens {
			t.Fatalf("Encode produced special id %d from plain text", id)
		}
	}
}

func TestEncodeReturnsFreshSlices(t *testing.T) {
	a := Encode("shared cache entry")
	a[0] = -7
	if b := Encode("shared cache entry"); b[0] == -7 {
		t.Fatal("Encode returned the cached slice; callers could corrupt it")
	}
}

func TestZeroModelIsIndependent(t *testing.T) {
	var m Model
	s := texts["emoji"]
	if got := m.Decode(m.Encode(s)); got != s {
		t.Fatalf("zero Model round trip = %q", got)
	}
	if !slices.Equal(m.Encode(s), Encode(s)) {
		t.Fatal("two Models disagree on the same text")
	}
}

func FuzzPieces(f *testing.F) {
	for _, s := range texts {
		f.Add(s)
	}
	f.Add("\xf0\x9f\x9a")
	f.Fuzz(func(t *testing.T, s string) {
		ids := Encode(s)
		want := Decode(ids)
		if utf8.ValidString(s) && want != s {
			t.Fatalf("Decode(Encode(%q)) = %q", s, want)
		}
		pieces := Pieces(ids)
		if len(pieces) != len(ids) {
			t.Fatalf("len(Pieces) = %d, len(ids) = %d", len(pieces), len(ids))
		}
		if got := strings.Join(pieces, ""); got != want {
			t.Fatalf("joined pieces = %q, Decode = %q", got, want)
		}
		for _, p := range pieces {
			if !utf8.ValidString(p) {
				t.Fatalf("piece %q is not valid UTF-8", p)
			}
		}
		// Arbitrary id sequences (byte tokens in any order, unknown ids)
		// must stream cleanly too.
		arbitrary := make([]int, len(s))
		for i := range len(s) {
			arbitrary[i] = int(s[i])*397%(EndOfTurn+10) - 3
		}
		if got, want := strings.Join(Pieces(arbitrary), ""), Decode(arbitrary); got != want || !utf8.ValidString(want) {
			t.Fatalf("arbitrary ids %v: joined pieces = %q, Decode = %q", arbitrary, got, want)
		}
		// Any prefix of the ids (a stream cut by max_tokens) must also
		// stream cleanly.
		for n := range min(len(ids), 64) {
			cut := ids[:n]
			if got, want := strings.Join(Pieces(cut), ""), Decode(cut); got != want {
				t.Fatalf("prefix %d: joined pieces = %q, Decode = %q", n, got, want)
			}
		}
	})
}
