package textmodel

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// kvContext is a retrieved passage; its sentences are what answers about
// the KV cache must be built from.
var kvContext = []string{
	"The KV cache keeps the keys and values of every earlier token in GPU memory.",
	"Paged attention splits the KV cache into blocks of sixteen tokens.",
	"When free blocks run out, the scheduler preempts the newest request.",
	"Prefix caching reuses the KV blocks of a shared system prompt.",
	"Support tickets are answered within one business day.",
	"Invoices can be downloaded from the billing page.",
}

func kvRequest(question string) ComposeRequest {
	return ComposeRequest{Messages: []Message{
		{RoleSystem, "You are a helpful assistant. Answer from the passages below."},
		{RoleTool, strings.Join(kvContext, " ")},
		{RoleUser, question},
	}}
}

func questionOnly(q string) ComposeRequest {
	return ComposeRequest{Messages: []Message{{RoleUser, q}}}
}

// checkAnswer asserts the invariants every Answer must keep.
func checkAnswer(t *testing.T, a Answer) {
	t.Helper()
	if len(a.Pieces) != len(a.Tokens) {
		t.Fatalf("len(Pieces) = %d, len(Tokens) = %d", len(a.Pieces), len(a.Tokens))
	}
	if got := strings.Join(a.Pieces, ""); got != a.Text {
		t.Fatalf("joined pieces %q != Text %q", got, a.Text)
	}
	if got := Decode(a.Tokens); got != a.Text {
		t.Fatalf("Decode(Tokens) %q != Text %q", got, a.Text)
	}
	if !utf8.ValidString(a.Text) {
		t.Fatalf("Text is not valid UTF-8: %q", a.Text)
	}
	if a.FinishReason != FinishStop && a.FinishReason != FinishLength {
		t.Fatalf("FinishReason = %q", a.FinishReason)
	}
}

// sentencesOf splits a composed answer into its opener and body sentences,
// using the known candidates; it fails if any text is left unexplained.
func sentencesOf(t *testing.T, text string, openers, candidates []string) []string {
	t.Helper()
	rest := ""
	for _, o := range openers {
		if strings.HasPrefix(text, o) {
			rest = strings.TrimPrefix(text, o)
			break
		}
	}
	if rest == "" && text != "" {
		if !slices.ContainsFunc(openers, func(o string) bool { return o == text }) {
			t.Fatalf("answer does not start with an opener: %q", text)
		}
	}
	var out []string
	for rest != "" {
		i := slices.IndexFunc(candidates, func(c string) bool { return strings.HasPrefix(rest, " "+c) })
		if i < 0 {
			t.Fatalf("answer text %q is not a candidate sentence", rest)
		}
		out = append(out, candidates[i])
		rest = strings.TrimPrefix(rest, " "+candidates[i])
	}
	return out
}

func corpusTexts() []string {
	var out []string
	for _, s := range shared.load().corpus.sentences {
		out = append(out, s.text)
	}
	return out
}

func TestComposeDrawsFromContext(t *testing.T) {
	tests := []struct {
		question string
		best     string // the sentence that must come first at temperature 0
	}{
		{"How does prefix caching reuse blocks of a system prompt?", kvContext[3]},
		{"What happens when free blocks run out?", kvContext[2]},
		{"Where can I download invoices?", kvContext[5]},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			a := Compose(kvRequest(tt.question))
			checkAnswer(t, a)
			if a.FinishReason != FinishStop {
				t.Errorf("FinishReason = %q, want stop", a.FinishReason)
			}
			got := sentencesOf(t, a.Text, contextOpeners, kvContext)
			if len(got) < minSentences {
				t.Fatalf("answer has %d sentences, want at least %d: %q", len(got), minSentences, a.Text)
			}
			if got[0] != tt.best {
				t.Errorf("first sentence = %q, want %q", got[0], tt.best)
			}
			q := contentWords(tt.question)
			if !slices.ContainsFunc(contentWords(got[0]), func(w string) bool { return slices.Contains(q, w) }) {
				t.Errorf("first sentence %q shares no word with the question", got[0])
			}
			if strings.Contains(a.Text, "helpful assistant") || strings.Contains(a.Text, "Answer from") {
				t.Errorf("system instructions leaked into the answer: %q", a.Text)
			}
			if !strings.ContainsAny(a.Text[len(a.Text)-1:], ".!?") {
				t.Errorf("natural answer does not end a sentence: %q", a.Text)
			}
		})
	}
}

func TestComposeFallsBackToCorpus(t *testing.T) {
	for _, q := range []string{"What is time to first token?", "How do I reset my password?", "", "ok"} {
		t.Run(q, func(t *testing.T) {
			a := Compose(questionOnly(q))
			checkAnswer(t, a)
			got := sentencesOf(t, a.Text, corpusOpeners, corpusTexts())
			if len(got) < minSentences {
				t.Fatalf("fallback answer has %d sentences: %q", len(got), a.Text)
			}
		})
	}
	a := Compose(questionOnly("How do I reset my password?"))
	if !strings.Contains(a.Text, "password reset link") {
		t.Errorf("password question did not pick the password sentence: %q", a.Text)
	}
}

// An answer from the corpus stays in the section the question hit: the
// sentences that share no word with the question (the padding up to the
// natural length, and everything a forced length adds) come from that
// section, so a question about a declined card is padded from the support
// desk, not from GPU memory, and one about decode from the decode notes.
func TestComposeStaysOnTopic(t *testing.T) {
	sections := corpusSections(t)
	for _, tc := range []struct {
		question, section string
		forced            int
	}{
		{"My card was declined, what can I do?", "Support desk", 0},
		{"My card was declined, what can I do?", "Support desk", 150},
		{"Why is decode limited by memory bandwidth?", "Prefill and decode", 0},
		{"Why is decode limited by memory bandwidth?", "Prefill and decode", 400},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.question, tc.forced), func(t *testing.T) {
			a := Compose(ComposeRequest{Messages: questionOnly(tc.question).Messages, ForcedTokens: tc.forced})
			got := corpusSentencesOf(t, a.Text)
			if len(got) < minSentences {
				t.Fatalf("answer has %d sentences: %q", len(got), a.Text)
			}
			q := contentWords(tc.question)
			padding := 0
			for _, s := range got {
				if slices.ContainsFunc(contentWords(s), func(w string) bool { return slices.Contains(q, w) }) {
					continue
				}
				padding++
				if sec := sections[s]; sec != tc.section {
					t.Errorf("padding from %q in an answer about %q: %q", sec, tc.section, s)
				}
			}
			if tc.forced > 0 && padding == 0 {
				t.Errorf("a forced answer of %d tokens needed no padding: %q", tc.forced, a.Text)
			}
		})
	}
}

// corpusSentencesOf splits a corpus answer after its opener into whole
// corpus sentences, and the last one as the sentence it begins when a
// forced length cut it short.
func corpusSentencesOf(t *testing.T, text string) []string {
	t.Helper()
	i := slices.IndexFunc(corpusOpeners, func(o string) bool { return strings.HasPrefix(text, o) })
	if i < 0 {
		t.Fatalf("answer does not start with an opener: %q", text)
	}
	rest := strings.TrimPrefix(text, corpusOpeners[i])
	var out []string
	for rest != "" {
		j := slices.IndexFunc(corpusTexts(), func(c string) bool {
			return strings.HasPrefix(rest, " "+c) || strings.HasPrefix(" "+c, rest)
		})
		if j < 0 {
			t.Fatalf("answer text %q is not a corpus sentence", rest)
		}
		c := corpusTexts()[j]
		out = append(out, c)
		rest = strings.TrimPrefix(rest, " "+c)
		if strings.HasPrefix(" "+c, rest) {
			break
		}
	}
	return out
}

// corpusSections maps each corpus sentence to the heading above it.
func corpusSections(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	heading := ""
	for line := range strings.Lines(corpusText) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "# "):
			heading = strings.TrimPrefix(line, "# ")
		case line != "":
			out[line] = heading
		}
	}
	return out
}

func TestComposeInlineContext(t *testing.T) {
	q := strings.Join(kvContext, " ") + "\n\nWhen does the scheduler preempt a request?"
	a := Compose(questionOnly(q))
	checkAnswer(t, a)
	got := sentencesOf(t, a.Text, contextOpeners, kvContext)
	if got[0] != kvContext[2] {
		t.Errorf("first sentence = %q, want %q", got[0], kvContext[2])
	}
}

func TestComposeDeterminism(t *testing.T) {
	base := kvRequest("How does the KV cache use GPU memory and blocks?")
	var other Model
	for _, temp := range []float64{0, 0.7, 1.5} {
		req := base
		req.Temperature, req.Seed = temp, 42
		a, b, c := Compose(req), Compose(req), other.Compose(req)
		if a.Text != b.Text || a.Text != c.Text || !slices.Equal(a.Tokens, c.Tokens) {
			t.Errorf("temperature %v: same seed gave different answers", temp)
		}
	}

	// Temperature 0 ignores the seed.
	req := base
	first := Compose(req).Text
	for seed := int64(1); seed <= 5; seed++ {
		req.Seed = seed
		if got := Compose(req).Text; got != first {
			t.Errorf("temperature 0, seed %d: answer changed", seed)
		}
	}

	// Temperature > 0: seeds vary the answer, while it stays on the context.
	for _, r := range []ComposeRequest{base, questionOnly("How does batching affect latency?")} {
		seen := map[string]bool{}
		for seed := int64(1); seed <= 8; seed++ {
			r.Temperature, r.Seed = 1, seed
			a := Compose(r)
			checkAnswer(t, a)
			seen[a.Text] = true
		}
		if len(seen) < 3 {
			t.Errorf("8 seeds at temperature 1 gave only %d distinct answers", len(seen))
		}
	}
}

func TestComposeLimits(t *testing.T) {
	natural := Compose(kvRequest("How does the KV cache use blocks?"))
	tests := []struct {
		name       string
		maxTokens  int
		forced     int
		stop       []string
		temp       float64
		noContext  bool
		wantLen    int // -1: not checked
		wantFinish string
	}{
		{"max_tokens cuts", 10, 0, nil, 0, false, 10, FinishLength},
		{"max_tokens 1", 1, 0, nil, 0, false, 1, FinishLength},
		{"max_tokens above natural", 10000, 0, nil, 0, false, len(natural.Tokens), FinishStop},
		{"max_tokens equal natural", len(natural.Tokens), 0, nil, 0, false, len(natural.Tokens), FinishStop},
		{"forced 1", 0, 1, nil, 0, false, 1, FinishLength},
		{"forced 7", 0, 7, nil, 0.8, false, 7, FinishLength},
		{"forced 1000 from context", 0, 1000, nil, 0, false, 1000, FinishLength},
		{"forced 1000 sampled", 0, 1000, nil, 1, false, 1000, FinishLength},
		{"forced 6000 corpus", 0, 6000, nil, 0.5, true, 6000, FinishLength},
		{"forced ignores stop", 0, 300, []string{"KV", "."}, 0, false, 300, FinishLength},
		{"forced capped by max_tokens", 50, 300, nil, 0, false, 50, FinishLength},
		{"negative values are off", -5, -3, nil, math.NaN(), false, len(natural.Tokens), FinishStop},
		{"infinite temperature", 0, 0, nil, math.Inf(1), false, len(natural.Tokens), FinishStop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := kvRequest("How does the KV cache use blocks?")
			if tt.noContext {
				req = questionOnly("How does the KV cache use blocks?")
			}
			req.MaxTokens, req.ForcedTokens, req.Stop, req.Temperature, req.Seed = tt.maxTokens, tt.forced, tt.stop, tt.temp, 7
			a := Compose(req)
			checkAnswer(t, a)
			if tt.wantLen >= 0 && len(a.Tokens) != tt.wantLen {
				t.Errorf("len(Tokens) = %d, want %d", len(a.Tokens), tt.wantLen)
			}
			if a.FinishReason != tt.wantFinish {
				t.Errorf("FinishReason = %q, want %q", a.FinishReason, tt.wantFinish)
			}
			if tt.maxTokens > 0 && tt.forced == 0 && tt.maxTokens < len(natural.Tokens) {
				if !slices.Equal(a.Tokens, natural.Tokens[:tt.maxTokens]) {
					t.Errorf("cut answer is not a prefix of the natural one")
				}
			}
			if tt.forced > 0 && tt.temp == 0 && !tt.noContext && tt.maxTokens == 0 {
				n := min(len(natural.Tokens), len(a.Tokens))
				if !slices.Equal(a.Tokens[:n], natural.Tokens[:n]) {
					t.Errorf("forced answer does not continue the natural one")
				}
			}
		})
	}
}

func TestComposeStop(t *testing.T) {
	req := kvRequest("How does the KV cache use blocks?")
	natural := Compose(req).Text
	// Pick stop strings from the natural answer so the test follows the
	// composer rather than a hard-coded text.
	words := strings.Fields(natural)
	mid := words[len(words)/2]
	tests := []struct {
		name string
		stop []string
		want string
	}{
		{"first period", []string{"."}, natural[:strings.Index(natural, ".")]},
		{"word in the middle", []string{mid}, natural[:strings.Index(natural, mid)]},
		{"earliest of several", []string{mid, "."}, natural[:min(strings.Index(natural, mid), strings.Index(natural, "."))]},
		{"absent", []string{"zebra crossing"}, natural},
		{"empty ignored", []string{""}, natural},
		{"at the very start", []string{natural[:3]}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := req
			r.Stop = tt.stop
			a := Compose(r)
			checkAnswer(t, a)
			if a.Text != tt.want {
				t.Errorf("Text = %q, want %q", a.Text, tt.want)
			}
			if a.FinishReason != FinishStop {
				t.Errorf("FinishReason = %q, want stop", a.FinishReason)
			}
			if !slices.Equal(a.Tokens, Encode(tt.want)) {
				t.Errorf("Tokens are not the encoding of the cut text")
			}
		})
	}

	// A stop string beyond max_tokens does not save the answer from the cut.
	r := req
	r.Stop, r.MaxTokens = []string{words[len(words)-1]}, 5
	if a := Compose(r); len(a.Tokens) != 5 || a.FinishReason != FinishLength {
		t.Errorf("stop after the cut: %d tokens, %q", len(a.Tokens), a.FinishReason)
	}
}

func TestComposeUTF8Context(t *testing.T) {
	ctx := []string{
		"Le cache KV garde les clés et valeurs de chaque jeton précédent 🚀.",
		"El préfijo compartido evita repetir el cálculo del sistema ✨.",
		"缓存命中时，首个令牌的延迟会大大降低。 Überall gilt: Zeit bis zum ersten Token zählt 👍🏽.",
	}
	req := ComposeRequest{Messages: []Message{{RoleSystem, strings.Join(ctx, "\n")}, {RoleUser, "Qu'est-ce que le cache KV garde?"}}}
	for n := 1; n <= 80; n++ {
		req.MaxTokens = n
		a := Compose(req)
		checkAnswer(t, a)
		if len(a.Tokens) > n {
			t.Fatalf("max_tokens %d: got %d tokens", n, len(a.Tokens))
		}
	}
	req.MaxTokens, req.ForcedTokens = 0, 333
	if a := Compose(req); len(a.Tokens) != 333 {
		t.Fatalf("forced 333: got %d", len(a.Tokens))
	}
}

func TestComposeCJKQuestion(t *testing.T) {
	ctx := []string{"预填充阶段并行处理整个提示。", "解码阶段每次只生成一个令牌。", "缓存命中时，首个令牌的延迟会大大降低。"}
	a := Compose(ComposeRequest{Messages: []Message{{RoleTool, strings.Join(ctx, "")}, {RoleUser, "缓存命中有什么好处？"}}})
	checkAnswer(t, a)
	if got := sentencesOf(t, a.Text, contextOpeners, ctx); got[0] != ctx[2] {
		t.Errorf("first sentence = %q, want the cache sentence", got[0])
	}
}

func TestComposeOddConversations(t *testing.T) {
	tests := map[string][]Message{
		"no messages":     nil,
		"assistant only":  {{RoleAssistant, "Earlier answer about batching."}},
		"system only":     {{RoleSystem, "Prefill is compute-bound and decode is memory-bound in every engine."}},
		"empty content":   {{RoleUser, ""}},
		"unknown role":    {{"narrator", "Decode streams tokens one by one to the reader."}, {RoleUser, "decode?"}},
		"whitespace only": {{RoleSystem, " \n\t "}, {RoleUser, "  "}},
		"invalid utf8":    {{RoleSystem, "Bad \xff bytes in a retrieved passage here."}, {RoleUser, "bytes?\xfe"}},
	}
	for name, msgs := range tests {
		t.Run(name, func(t *testing.T) {
			a := Compose(ComposeRequest{Messages: msgs, Temperature: 0.5, Seed: 1})
			checkAnswer(t, a)
			if a.Text == "" {
				t.Fatal("empty answer")
			}
		})
	}
}

// TestComposeTokensAreCanonical checks that segment-wise encoding gives the
// same ids as encoding the whole answer, so usage counts match a re-count.
func TestComposeTokensAreCanonical(t *testing.T) {
	for i, req := range []ComposeRequest{
		kvRequest("How does the KV cache use blocks?"),
		questionOnly("What is continuous batching?"),
		{Messages: questionOnly("x").Messages, ForcedTokens: 5000, Temperature: 1, Seed: 3},
	} {
		a := Compose(req)
		if got := Encode(a.Text); !slices.Equal(got, a.Tokens) {
			t.Errorf("request %d: Encode(Text) has %d ids, Tokens %d", i, len(got), len(a.Tokens))
		}
	}
}

func TestCorpusSentencesReadable(t *testing.T) {
	c := shared.load().corpus
	if n := len(c.sentences); n < 60 || n > 100 {
		t.Errorf("corpus has %d sentences, want 60–100", n)
	}
	for i, s := range c.sentences {
		if !slices.Equal(c.ids[i], Encode(" "+s.text)) {
			t.Errorf("cached ids of sentence %d are stale", i)
		}
		if got := splitSentences(s.text); len(got) != 1 || got[0].text != s.text {
			t.Errorf("corpus line is not exactly one sentence: %q", s.text)
		}
	}
}

func ExampleCompose() {
	a := Compose(ComposeRequest{
		Messages: []Message{
			{Role: RoleTool, Content: "Prefix caching reuses the KV blocks of a shared system prompt. Invoices are on the billing page."},
			{Role: RoleUser, Content: "What does prefix caching reuse?"},
		},
		MaxTokens: 64,
	})
	fmt.Println(a.FinishReason, len(a.Tokens) == len(a.Pieces))
	fmt.Println(a.Text)
	// Output:
	// stop true
	// Based on the provided context, here is the answer. Prefix caching reuses the KV blocks of a shared system prompt. Invoices are on the billing page.
}

// TestConcurrentUse runs the shared caches from several goroutines; run
// with -race to check the locking.
func TestConcurrentUse(t *testing.T) {
	var m Model
	want := m.Compose(kvRequest("How does the KV cache use blocks?")).Text
	errs := make(chan string, 8)
	for g := range 8 {
		go func() {
			for i := range 50 {
				q := fmt.Sprintf("question %d from %d about blocks?", i%5, g)
				m.Encode(q)
				m.PromptTokens([]Message{{RoleUser, q}})
				if got := m.Compose(kvRequest("How does the KV cache use blocks?")).Text; got != want {
					errs <- got
					return
				}
			}
			errs <- ""
		}()
	}
	for range 8 {
		if got := <-errs; got != "" {
			t.Errorf("concurrent answer differs: %q", got)
		}
	}
}
