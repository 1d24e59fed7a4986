package moderation

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// Evaluation sets for the policy classifier's false alarms: ordinary text
// the product really shows (the text model's corpus, the store's help
// articles, answers composed from them and the windows the API checks).
// Some of that text may be used as safe training data (see data/safe.tsv),
// so every set is measured on its held-out part, which never trains.

// evalHeldOut reports whether the corpus sentence or help article named
// key is kept out of training. Two in three are held out, chosen by a hash
// so the split is fixed and independent of file order.
func evalHeldOut(key string) bool {
	h := fnv.New32a()
	h.Write([]byte(key))
	return h.Sum32()%3 != 0
}

const (
	corpusPath   = "../textmodel/corpus.txt"
	articlesPath = "../../web/store/kb/articles"
)

// corpusSentences returns the text model's corpus, one sentence a line.
func corpusSentences(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(corpusPath)
	if err != nil {
		t.Fatalf("read corpus: %v", err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// kbArticle is one help article cut into chunks of up to three sentences
// of one paragraph, close to what the store's chunker retrieves.
type kbArticle struct {
	slug   string
	chunks []string
}

// kbArticles reads the store's help articles, or skips the test when the
// web tree is not there (engine/moderation must not import it).
func kbArticles(t testing.TB) []kbArticle {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(articlesPath, "*.md"))
	if err != nil || len(files) == 0 {
		t.Skipf("no help articles at %s", articlesPath)
	}
	sort.Strings(files)
	var out []kbArticle
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read article: %v", err)
		}
		out = append(out, kbArticle{slug: strings.TrimSuffix(filepath.Base(f), ".md"), chunks: chunkMarkdown(string(b))})
	}
	return out
}

// chunkMarkdown drops headings and cuts each paragraph (or list item) into
// passages of at most three sentences.
func chunkMarkdown(md string) []string {
	var out []string
	for _, para := range strings.Split(md, "\n\n") {
		var lines []string
		for _, line := range strings.Split(para, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			lines = append(lines, strings.TrimLeft(line, "-*0123456789. "))
		}
		text := strings.Join(lines, " ")
		sents := sentences(text)
		for i := 0; i < len(sents); i += 3 {
			j := min(i+3, len(sents))
			out = append(out, text[sents[i][0]:sents[j-1][1]])
		}
	}
	return out
}

// supportQuestions are ordinary customer questions, one per help article.
var supportQuestions = map[string]string{
	"accessibility":            "Does your website work with a screen reader and keyboard only?",
	"account-locked":           "My account is locked after too many sign-in attempts, how do I get back in?",
	"account-password":         "I forgot my password, how do I reset it?",
	"account-settings":         "How do I change the email address on my account?",
	"backorders-preorders":     "When will my backordered jacket ship?",
	"business-accounts":        "Can my company open a business account with invoices?",
	"canada-shipping":          "Do you ship to Canada and how much does it cost?",
	"care-down-wool":           "How should I wash my down jacket and merino sweater?",
	"care-waterproof":          "My rain jacket stopped repelling water, how do I clean it?",
	"change-or-cancel-order":   "Can I cancel my order or change the size before it ships?",
	"charges-holds":            "Why is there a pending charge on my card after I cancelled?",
	"contact-us":               "What are your support hours and how can I reach an agent?",
	"custom-logos":             "Can you embroider our team logo on fleece jackets?",
	"customs-duties":           "Will I have to pay customs duties on an order shipped abroad?",
	"damaged-items":            "My boots arrived with a broken zip, what should I do?",
	"declined-cards":           "Why was my card declined at checkout?",
	"delete-account":           "How do I delete my account and all my data?",
	"delivered-not-received":   "Tracking says my parcel was delivered but I don't have it.",
	"delivery-times":           "How long does processing and delivery take?",
	"exchanges":                "Can I exchange my shirt for a larger size?",
	"final-sale":               "Can I return an item I bought on final sale?",
	"footwear-sizing":          "Should I size up for hiking boots?",
	"gift-card-balance":        "How do I check my gift card balance, and can you replace a lost one?",
	"gift-cards":               "Do your gift cards expire, and can I use more than one?",
	"gift-wrapping-receipts":   "Can you gift wrap my order and include a gift receipt?",
	"holiday-returns":          "How long do I have to return a holiday gift?",
	"how-to-return":            "How do I start a return for my order?",
	"international-returns":    "How do I return an item from outside the US?",
	"international-shipping":   "Which countries do you ship to?",
	"late-or-lost-package":     "My package is late and tracking has not updated, is it lost?",
	"lost-package-claims":      "My package was stolen from my porch, can you send a replacement?",
	"missing-or-wrong-items":   "An item is missing from my order and another one is wrong.",
	"northwind-plus":           "What do I get with a Northwind Plus membership?",
	"order-confirmation-email": "I did not get an order confirmation email, did my order go through?",
	"order-status-meanings":    "What does the processing status on my order mean?",
	"outdoor-gear-care":        "How do I clean and store my tent and sleeping bag?",
	"pay-in-four":              "Can I pay for my order in four instalments?",
	"payment-methods":          "Which payment methods do you accept?",
	"po-boxes-military":        "Can you ship to a PO box or a military address?",
	"price-adjustments":        "The price dropped a week after I bought my jacket, can I get the difference?",
	"price-matching":           "Do you match a lower price from another retailer?",
	"privacy-data":             "What personal data do you keep about me and do you sell it?",
	"promo-code-not-working":   "Why does my promo code not work at checkout?",
	"promo-codes":              "How do I use a promo code on my order?",
	"refund-methods":           "Where does my refund go if I paid with a gift card?",
	"refund-timing":            "How long does a refund take to reach my card?",
	"repairs":                  "Can you repair my jacket after the warranty has ended?",
	"return-policy":            "What is your return policy?",
	"return-status":            "How do I check the status of my return?",
	"rewards":                  "How do I earn and spend Northwind Rewards points?",
	"sales-tax":                "Why was sales tax added to my order?",
	"shipping-options":         "What shipping options do you offer in the US and what do they cost?",
	"signature-required":       "Why does my delivery need a signature and what if I'm not home?",
	"sizing":                   "How do I find my size in your jackets?",
	"sock-club":                "How do I pause or cancel my Sock Club subscription?",
	"split-shipments":          "Why did my order arrive in two packages?",
	"store-locations":          "Where are your stores and when are they open?",
	"store-pickup":             "Can I buy online and pick up in store?",
	"track-your-order":         "How do I track my order?",
	"two-factor":               "How do I turn on two-factor authentication?",
	"warranty":                 "What does your two-year warranty cover?",
	"worn-used-items":          "Can I return boots I have already worn outside?",
}

// composedAnswer answers question from the chunks of its article (and the
// next article's, so the ranking has something to skip), the way the
// support pipeline prompts the model.
func composedAnswer(question string, chunks []string) textmodel.Answer {
	msgs := []textmodel.Message{
		{Role: textmodel.RoleSystem, Content: "Answer the customer from the support notes.\n\nSupport notes:\n" + strings.Join(chunks, "\n")},
		{Role: textmodel.RoleUser, Content: question},
	}
	return textmodel.Compose(textmodel.ComposeRequest{Messages: msgs, MaxTokens: 400})
}

// apiWindows returns the texts the API's filter (abort mid-stream, 20-token
// windows, 10 tokens of overlap) checks for pieces when every check passes.
func apiWindows(t testing.TB, pieces []string) []string {
	t.Helper()
	f, err := NewFilter(FilterConfig{Policy: AbortMidStream, Window: 20, Overlap: 10})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var do func([]Action)
	do = func(acts []Action) {
		for _, a := range acts {
			if a.Kind == ActCheck {
				out = append(out, a.Text)
				do(f.Checked(a.ID, Result{Verdict: Allow}))
			}
		}
	}
	for _, p := range pieces {
		do(f.Token(p))
	}
	do(f.End())
	return out
}

// evalSet is one body of ordinary text, each item checked on its own.
type evalSet struct {
	name  string
	items []string
}

// falseAlarmSets builds the four evaluation sets from held-out text only.
func falseAlarmSets(t testing.TB, all bool) []evalSet {
	t.Helper()
	var corpus []string
	for _, s := range corpusSentences(t) {
		if all || evalHeldOut(s) {
			corpus = append(corpus, s)
		}
	}
	arts := kbArticles(t)
	var chunks, answers, windows []string
	questions := 0
	for i, a := range arts {
		if !all && !evalHeldOut(a.slug) {
			continue
		}
		chunks = append(chunks, a.chunks...)
		q, ok := supportQuestions[a.slug]
		if !ok {
			continue
		}
		ctx := append(append([]string(nil), a.chunks...), arts[(i+1)%len(arts)].chunks...)
		ans := composedAnswer(q, ctx)
		questions++
		answers = append(answers, ans.Text)
		windows = append(windows, apiWindows(t, ans.Pieces)...)
	}
	if questions < 30 {
		t.Fatalf("only %d held-out support questions; want 30 or more", questions)
	}
	return []evalSet{
		{"corpus sentences", corpus},
		{"kb chunks", chunks},
		{"composed answers", answers},
		{"answer windows 20/10", windows},
	}
}

// TestPolicyFalseAlarms is the false-alarm budget of KindPolicy on the
// text the product shows: at most 2% of each held-out set may be flagged.
func TestPolicyFalseAlarms(t *testing.T) {
	c := mustClassifier(t)
	for _, set := range falseAlarmSets(t, false) {
		t.Run(strings.ReplaceAll(set.name, " ", "_"), func(t *testing.T) {
			flagged := 0
			for _, text := range set.items {
				r := Detect(c, text, KindPolicy)
				if r.Blocked() {
					flagged++
					if flagged <= 5 {
						t.Logf("flagged %v: %q", r.Categories, found(text, r))
					}
				}
			}
			rate := float64(flagged) / float64(len(set.items))
			t.Logf("%s: %d of %d flagged, false-positive rate %.1f%%", set.name, flagged, len(set.items), 100*rate)
			if rate > 0.02 {
				t.Errorf("false-positive rate %.1f%% on %s; want ≤ 2%%", 100*rate, set.name)
			}
		})
	}
}

// TestTrainingHoldsNoEvalText guards the honesty of the figures above: no
// held-out corpus sentence or sentence of a held-out article may appear
// in the training data.
func TestTrainingHoldsNoEvalText(t *testing.T) {
	ex, err := PolicyExamples()
	if err != nil {
		t.Fatal(err)
	}
	trained := map[string]bool{}
	for _, e := range ex {
		trained[strings.ToLower(e.Text)] = true
	}
	var held []string
	for _, s := range corpusSentences(t) {
		if evalHeldOut(s) {
			held = append(held, s)
		}
	}
	for _, a := range kbArticles(t) {
		if !evalHeldOut(a.slug) {
			continue
		}
		for _, c := range a.chunks {
			for _, s := range sentences(c) {
				held = append(held, c[s[0]:s[1]])
			}
		}
	}
	for _, s := range held {
		if trained[strings.ToLower(s)] {
			t.Errorf("held-out text is in the training data: %q", s)
		}
	}
	if len(held) < 200 {
		t.Errorf("only %d held-out sentences", len(held))
	}
}
