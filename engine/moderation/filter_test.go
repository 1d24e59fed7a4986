package moderation

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// run is one stream driven through a filter with checks that answer at
// once: what the filter released, every check and its result.
type run struct {
	released   []span // byte ranges delivered, in order
	passed     []span // byte ranges of passing checks
	failed     []Span // spans of failed checks, in answer offsets
	checks     int
	replaced   bool
	withheld   bool
	aborted    bool
	reason     string
	visible    string
	deliveries int
}

type span struct{ start, end int }

// drive feeds pieces to a filter, answering every check with check(text)
// as soon as it is asked (before the next token arrives).
func drive(t *testing.T, cfg FilterConfig, pieces []string, check func(string) Result) (run, *Filter) {
	t.Helper()
	f, err := NewFilter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var r run
	var do func([]Action)
	do = func(acts []Action) {
		for _, a := range acts {
			switch a.Kind {
			case ActDeliver:
				r.released = append(r.released, span{a.Offset, a.Offset + len(a.Text)})
				r.visible += a.Text
				r.deliveries++
			case ActCheck:
				r.checks++
				res := check(a.Text)
				if !res.Blocked() {
					r.passed = append(r.passed, span{a.Offset, a.Offset + len(a.Text)})
				}
				do(f.Checked(a.ID, res))
			case ActCaught:
				r.failed = append(r.failed, a.Result.Spans...)
			case ActReplace:
				r.replaced, r.visible = true, a.Text
			case ActWithhold:
				r.withheld = true
			case ActAbort:
				r.aborted = true
			case ActFinish:
				if r.reason != "" {
					t.Fatalf("finished twice (%s, then %s)", r.reason, a.Reason)
				}
				r.reason = a.Reason
			}
		}
	}
	for _, p := range pieces {
		do(f.Token(p))
	}
	do(f.End())
	if r.reason == "" {
		t.Fatal("the stream never finished")
	}
	return r, f
}

func piiOnly(text string) Result { return Detect(nil, text, KindPII) }

// split cuts text into token-like pieces: a word with its leading space,
// digits in groups of up to three, punctuation on its own.
func split(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := i + 1
		switch c := text[i]; {
		case c >= '0' && c <= '9':
			for j < len(text) && j-i < 3 && text[j] >= '0' && text[j] <= '9' {
				j++
			}
		case c == ' ' || isWordByte(c):
			for j < len(text) && isWordByte(text[j]) && !(text[j] >= '0' && text[j] <= '9') {
				j++
			}
		}
		out = append(out, text[i:j])
		i = j
	}
	return out
}

var (
	safeSentences = []string{
		"Refunds reach the card within five to seven working days.",
		"The billing team reversed the second charge on Tuesday.",
		"You can download the invoice from the billing page.",
		"The parcel left the warehouse this morning.",
		"Please restart the app and try again.",
		"Our support hours are eight to eight.",
	}
	piiItems = []string{
		"maria.lopez@example.com", "4539 1488 0343 6467", "(415) 555-0123",
		"+44 20 7946 0958", "GB82 WEST 1234 5698 7654 32", "4111-1111-1111-1111", "j.smith+billing@shop.example.org",
	}
)

// randomStream is safe sentences with personal data at random places.
func randomStream(rng *rand.Rand) string {
	var b strings.Builder
	n := 3 + rng.IntN(12)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		s := safeSentences[rng.IntN(len(safeSentences))]
		if rng.IntN(8) == 0 {
			words := strings.Fields(s)
			k := rng.IntN(len(words))
			words = append(words[:k], append([]string{piiItems[rng.IntN(len(piiItems))]}, words[k:]...)...)
			s = strings.Join(words, " ")
		}
		b.WriteString(s)
	}
	return b.String()
}

func inside(b int, spans []Span) bool {
	for _, s := range spans {
		if b >= s.Start && b < s.End {
			return true
		}
	}
	return false
}

// TestWindowNeverReleasesFailedText drives many random streams with
// personal data at random places through the buffered-window and abort
// policies and checks, byte by byte, that released text was covered by a
// passing check and by no failed check, and (the overlap being longer than
// any item) that nothing the detectors find in the whole answer was shown.
func TestWindowNeverReleasesFailedText(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	longest := 0
	for _, p := range piiItems {
		longest = max(longest, len(split(" "+p)))
	}
	streams, blocked := 0, 0
	for i := 0; i < 400; i++ {
		text := randomStream(rng)
		pieces := split(text)
		policy := []Policy{BufferedWindow, AbortMidStream}[i%2]
		cfg := FilterConfig{Policy: policy, Window: 1 + rng.IntN(30), Overlap: longest + rng.IntN(8)}
		if i%4 >= 2 {
			// Sentence windows never cut a sentence, and no item here
			// spans two, so no overlap is needed.
			cfg = FilterConfig{Policy: policy, Unit: Sentences, Window: 1 + rng.IntN(3), Overlap: rng.IntN(2)}
		}
		r, _ := drive(t, cfg, pieces, piiOnly)
		truth := piiOnly(text)
		streams++
		if r.reason == FinishContentFilter {
			blocked++
		}
		for _, rel := range r.released {
			for b := rel.start; b < rel.end; b++ {
				covered := false
				for _, p := range r.passed {
					covered = covered || b >= p.start && b < p.end
				}
				if !covered {
					t.Fatalf("stream %d (%+v): byte %d released without a passing check\n%s", i, cfg, b, text)
				}
				if inside(b, r.failed) {
					t.Fatalf("stream %d (%+v): byte %d released inside a failed span\n%s", i, cfg, b, text)
				}
				if inside(b, truth.Spans) {
					t.Fatalf("stream %d (%+v): personal data at byte %d reached the reader: %q\n%s", i, cfg, b, r.visible, text)
				}
			}
		}
		if truth.Blocked() != (r.reason == FinishContentFilter) {
			t.Fatalf("stream %d (%+v): finish %s, but the whole answer's verdict is %s\n%s", i, cfg, r.reason, truth.Verdict, text)
		}
		if !truth.Blocked() && r.visible != text {
			t.Fatalf("stream %d: clean answer not delivered whole: %q", i, r.visible)
		}
	}
	if blocked == 0 || blocked == streams {
		t.Fatalf("%d of %d streams blocked; the generator must produce both kinds", blocked, streams)
	}
	t.Logf("%d streams, %d blocked", streams, blocked)
}

// leaked counts delivered pieces that overlap personal data found in the
// whole answer.
func leaked(text string, pieces []string, r run) int {
	truth := piiOnly(text)
	n, off := 0, 0
	for _, p := range pieces {
		start, end := off, off+len(p)
		off = end
		shown := false
		for _, rel := range r.released {
			shown = shown || start < rel.end && rel.start < end
		}
		hit := false
		for _, s := range truth.Spans {
			hit = hit || start < s.End && s.Start < end
		}
		if shown && hit {
			n++
		}
	}
	return n
}

func TestPoliciesOnALeak(t *testing.T) {
	text := "Maria asked about a double charge. Her e-mail is maria.lopez@example.com and the card was 4539 1488 0343 6467. The second charge was reversed."
	pieces := split(text)
	tests := []struct {
		cfg                   FilterConfig
		leak                  bool
		replaced, withheld    bool
		aborted               bool
		visiblePrefix         string
		minChecks, maxChecks  int
		deliveredBeforeChecks bool
	}{
		{cfg: FilterConfig{Policy: NoModeration}, leak: true, visiblePrefix: text, minChecks: 0, maxChecks: 0},
		{cfg: FilterConfig{Policy: StreamThenModerate, Window: 12, Overlap: 4}, leak: true, replaced: true, visiblePrefix: DefaultFallback, minChecks: 1, maxChecks: 5},
		{cfg: FilterConfig{Policy: ModerateThenSend}, replaced: true, visiblePrefix: DefaultFallback, minChecks: 1, maxChecks: 1},
		{cfg: FilterConfig{Policy: BufferedWindow, Window: 8, Overlap: 8}, withheld: true, visiblePrefix: "Maria asked", minChecks: 1, maxChecks: 5},
		{cfg: FilterConfig{Policy: AbortMidStream, Window: 8, Overlap: 8}, aborted: true, replaced: true, visiblePrefix: DefaultFallback, minChecks: 1, maxChecks: 5},
	}
	for _, tc := range tests {
		t.Run(string(tc.cfg.Policy), func(t *testing.T) {
			r, _ := drive(t, tc.cfg, pieces, piiOnly)
			if got := leaked(text, pieces, r); (got > 0) != tc.leak {
				t.Errorf("%d personal-data tokens shown; want leak %v", got, tc.leak)
			}
			if r.replaced != tc.replaced || r.withheld != tc.withheld || r.aborted != tc.aborted {
				t.Errorf("replaced %v withheld %v aborted %v; want %v %v %v", r.replaced, r.withheld, r.aborted, tc.replaced, tc.withheld, tc.aborted)
			}
			wantReason := FinishContentFilter
			if tc.cfg.Policy == NoModeration {
				wantReason = FinishStop
			}
			if r.reason != wantReason {
				t.Errorf("finish %s, want %s", r.reason, wantReason)
			}
			if !strings.HasPrefix(r.visible, tc.visiblePrefix) {
				t.Errorf("visible %q, want it to start %q", r.visible, tc.visiblePrefix)
			}
			if r.checks < tc.minChecks || r.checks > tc.maxChecks {
				t.Errorf("%d checks, want %d to %d", r.checks, tc.minChecks, tc.maxChecks)
			}
		})
	}
}

// TestOverlapCatchesSplitPhone puts a phone number across the boundary of
// two windows: with an overlap the second check sees it whole, without one
// neither half looks like a phone number and it reaches the reader.
func TestOverlapCatchesSplitPhone(t *testing.T) {
	// Ten tokens of text, then the number starts: "(415) 555-0123" is
	// ( 415 ) space 555 - 012 3, so a 12-token window ends inside it.
	text := "Please call the billing desk on this number today (415) 555-0123 before five."
	pieces := split(text)
	at := strings.Index(text, "(415)")
	before, off := 0, 0
	for off < at {
		off += len(pieces[before])
		before++
	}
	window := before + 3 // ends after "(415)", splitting the number
	for _, tc := range []struct {
		overlap int
		caught  bool
	}{{0, false}, {6, true}} {
		t.Run(fmt.Sprintf("overlap %d", tc.overlap), func(t *testing.T) {
			r, _ := drive(t, FilterConfig{Policy: BufferedWindow, Window: window, Overlap: tc.overlap}, pieces, piiOnly)
			if caught := len(r.failed) > 0; caught != tc.caught {
				t.Fatalf("caught %v, want %v (visible %q)", caught, tc.caught, r.visible)
			}
			if shown := strings.Contains(r.visible, "555"); shown == tc.caught {
				t.Errorf("part of the number shown: %v (visible %q)", shown, r.visible)
			}
			if !piiOnly(text).Blocked() {
				t.Fatal("the whole text has no phone number: the test is broken")
			}
		})
	}
}

// TestSentenceWindows checks that sentence windows release whole
// sentences only, hold back the overlap, and are not fooled by the dots
// in numbers and addresses.
func TestSentenceWindows(t *testing.T) {
	text := "The fee is 4.50 euros. Write to help@example.com today! Is that clear? It is."
	pieces := split(text)
	var releases []string
	f, err := NewFilter(FilterConfig{Policy: BufferedWindow, Unit: Sentences, Window: 1, Overlap: 1})
	if err != nil {
		t.Fatal(err)
	}
	var do func([]Action)
	do = func(acts []Action) {
		for _, a := range acts {
			switch a.Kind {
			case ActDeliver:
				releases = append(releases, a.Text)
			case ActCheck:
				do(f.Checked(a.ID, Result{Verdict: Allow}))
			}
		}
	}
	for _, p := range pieces {
		do(f.Token(p))
	}
	do(f.End())
	want := []string{"The fee is 4.50 euros.", " Write to help@example.com today!", " Is that clear? It is."}
	if strings.Join(releases, "|") != strings.Join(want, "|") {
		t.Errorf("releases %q, want %q", releases, want)
	}
}

func TestFilterConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg FilterConfig
		ok  bool
	}{
		{FilterConfig{Policy: NoModeration}, true},
		{FilterConfig{Policy: ModerateThenSend}, true},
		{FilterConfig{Policy: BufferedWindow, Window: 20, Overlap: 5}, true},
		{FilterConfig{Policy: BufferedWindow, Window: 0}, false},
		{FilterConfig{Policy: AbortMidStream, Window: 10, Overlap: -1}, false},
		{FilterConfig{Policy: "later"}, false},
		{FilterConfig{Policy: BufferedWindow, Unit: Sentences, Window: 2}, true},
		{FilterConfig{Policy: BufferedWindow, Unit: "paragraphs", Window: 2}, false},
	} {
		if err := tc.cfg.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: Validate = %v, want ok %v", tc.cfg, err, tc.ok)
		}
	}
}

func TestCleanStreamDeliveredWhole(t *testing.T) {
	text := strings.Join(safeSentences, " ")
	for _, p := range Policies() {
		for _, unit := range []Unit{Tokens, Sentences} {
			r, _ := drive(t, FilterConfig{Policy: p, Unit: unit, Window: 2, Overlap: 1}, split(text), piiOnly)
			if r.visible != text || r.reason != FinishStop {
				t.Errorf("%s in %s: finish %s, visible %q", p, unit, r.reason, r.visible)
			}
		}
	}
}

// TestWindowSchedule feeds one token at a time and records, for each
// check, how many tokens had been written when it started, the range it
// read and where it released to. The first window has no earlier text,
// so its check comes after Window tokens; every later check re-reads the
// Overlap held back from the one before and adds Window new tokens.
func TestWindowSchedule(t *testing.T) {
	type check struct{ at, from, to, release int }
	for _, tc := range []struct {
		window, overlap, tokens int
		want                    []check
	}{
		{20, 10, 50, []check{{20, 0, 20, 10}, {40, 10, 40, 30}, {50, 30, 50, 50}}},
		{20, 0, 45, []check{{20, 0, 20, 20}, {40, 20, 40, 40}, {45, 40, 45, 45}}},
		// An overlap as long as the window: the first check holds all it read.
		{5, 5, 12, []check{{5, 0, 5, 0}, {10, 0, 10, 5}, {12, 5, 12, 12}}},
	} {
		t.Run(fmt.Sprintf("window %d overlap %d", tc.window, tc.overlap), func(t *testing.T) {
			f, err := NewFilter(FilterConfig{Policy: BufferedWindow, Window: tc.window, Overlap: tc.overlap})
			if err != nil {
				t.Fatal(err)
			}
			var got []check
			written := 0
			var do func([]Action)
			do = func(acts []Action) {
				for _, a := range acts {
					switch a.Kind {
					case ActCheck:
						got = append(got, check{at: written, from: a.From, to: a.To, release: a.From})
						do(f.Checked(a.ID, Result{}))
					case ActDeliver:
						if len(got) > 0 {
							got[len(got)-1].release = a.To
						}
					}
				}
			}
			for written < tc.tokens {
				written++
				do(f.Token(" w"))
			}
			do(f.End())
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("checks (written, from, to, released to) %v, want %v", got, tc.want)
			}
		})
	}
}
