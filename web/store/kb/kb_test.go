package kb

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tiktoken-go/tokenizer"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"one", "Refunds take 5 days.", []string{"Refunds take 5 days."}},
		{"two", "Refunds take 5 days. Store credit is instant.", []string{"Refunds take 5 days.", "Store credit is instant."}},
		{"question and digit", "Card declined? 3 tries are allowed.", []string{"Card declined?", "3 tries are allowed."}},
		{"decimal and price stay", "It costs $5.95 per order. Free over $75.", []string{"It costs $5.95 per order.", "Free over $75."}},
		{"abbreviation", "Bring ID, e.g. A passport. Then wait.", []string{"Bring ID, e.g. A passport.", "Then wait."}},
		{"lower case after stop", "Prices end in .97 and more. ok", []string{"Prices end in .97 and more. ok"}},
		{"closing quote", `It says "label created." Then it moves.`, []string{`It says "label created."`, "Then it moves."}},
		{"collapses whitespace", "A  b\n c.   D e.", []string{"A b c.", "D e."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sentences(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Sentences(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseChunks(t *testing.T) {
	long := strings.Repeat("This sentence is about forty-five bytes long. ", 8)
	tests := []struct {
		name    string
		text    string
		title   string
		chunks  int
		wantErr bool
	}{
		{"no title", "Just text.", "", 0, true},
		{"title only", "# Empty\n\n", "", 0, true},
		{"short paragraphs merge", "# T\n\nOne short line.\n\nAnother short line.\n", "T", 1, false},
		{"long paragraph splits at three sentences", "# T\n\n" + long, "T", 3, false},
		{"list items group like sentences", "# T\n\n- " + strings.Repeat("item words ", 12) + "\n- " + strings.Repeat("more words ", 12) + "\n", "T", 1, false},
		{"long list items stand alone", "# T\n\n- " + strings.Repeat("item words ", 20) + "\n- " + strings.Repeat("more words ", 20) + "\n", "T", 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Parse("x", tt.text)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Parse err = %v, wantErr %t", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if a.Title != tt.title || len(a.Chunks) != tt.chunks {
				t.Fatalf("Parse = title %q, %d chunks %q; want %q, %d", a.Title, len(a.Chunks), a.Chunks, tt.title, tt.chunks)
			}
		})
	}
}

func TestChunkingIsDeterministicAndLossless(t *testing.T) {
	text := "# Title\n\nFirst sentence here is fine. Second one follows it. Third one too. Fourth ends it.\n\nA new paragraph starts here and goes on for a while to be long enough.\n"
	a, err := Parse("x", text)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Parse("x", text)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two parses differ")
	}
	joined := strings.Join(a.Chunks, " ")
	want := "First sentence here is fine. Second one follows it. Third one too. Fourth ends it. A new paragraph starts here and goes on for a while to be long enough."
	if joined != want {
		t.Fatalf("chunks lose or change text:\n got %q\nwant %q", joined, want)
	}
}

func TestLoadVersionTracksContent(t *testing.T) {
	fsys := fstest.MapFS{
		"a/one.md": {Data: []byte("# One\n\nRefunds take five to ten business days after we inspect the return.\n")},
		"a/two.md": {Data: []byte("# Two\n\nGift cards never expire and have no fees at all, ever.\n")},
	}
	arts, v1, err := load(fsys, "a")
	if err != nil || len(arts) != 2 || arts[0].Slug != "one" {
		t.Fatalf("load = %+v, %v", arts, err)
	}
	_, again, _ := load(fsys, "a")
	fsys["a/two.md"] = &fstest.MapFile{Data: []byte("# Two\n\nGift cards expire after one year.\n")}
	_, v2, _ := load(fsys, "a")
	if v1 != again || v1 == v2 {
		t.Fatalf("versions: %s, %s (same content), %s (changed)", v1, again, v2)
	}
	if _, _, err := load(fstest.MapFS{}, "a"); err == nil {
		t.Fatal("empty folder loaded without error")
	}
}

// TestBundledKnowledgeBase checks the real content: enough articles and
// passages for retrieval to be selective, each passage a readable size in
// real cl100k tokens, no duplicate slugs or titles.
func TestBundledKnowledgeBase(t *testing.T) {
	arts, version, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	chunks, tokens, minTok, maxTok := 0, 0, 1<<30, 0
	for _, a := range arts {
		if titles[a.Title] {
			t.Errorf("duplicate title %q", a.Title)
		}
		titles[a.Title] = true
		for _, c := range a.Chunks {
			n, err := codec.Count(c)
			if err != nil {
				t.Fatal(err)
			}
			if k := len(Sentences(c)); k < 1 || k > MaxSentences {
				t.Errorf("%s: passage of %d sentences, want 1..%d: %q", a.Slug, k, MaxSentences, c)
			}
			if n < 20 || n > 110 {
				t.Errorf("%s: passage of %d tokens, want 20..110: %q", a.Slug, n, c)
			}
			chunks++
			tokens += n
			minTok, maxTok = min(minTok, n), max(maxTok, n)
		}
	}
	t.Logf("version %s: %d articles, %d chunks, %d tokens (min %d, mean %d, max %d)",
		version, len(arts), chunks, tokens, minTok, tokens/chunks, maxTok)
	if len(arts) < 45 || len(arts) > 65 {
		t.Errorf("%d articles, want 45..65", len(arts))
	}
	if chunks < 200 || chunks > 400 {
		t.Errorf("%d chunks, want 200..400", chunks)
	}
}

func TestMatchExpr(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"how do I?", ""},
		{"How long do refunds take?", `"long" OR "refunds" OR "take"`},
		{"my card was DECLINED!!", `"card" OR "declined"`},
		{"where is my order NW-10452", `"order" OR "nw" OR "10452"`},
		{`title:refund" OR NEAR(a b) * ^x -y`, `"title" OR "refund" OR "near"`},
		{"refund refund Refund", `"refund"`},
		{"café crème", `"café" OR "crème"`},
	}
	for _, tt := range tests {
		if got := MatchExpr(tt.in); got != tt.want {
			t.Errorf("MatchExpr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	many := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega extra more ", 3)
	if n := strings.Count(MatchExpr(many), " OR ") + 1; n != MaxTerms {
		t.Errorf("terms = %d, want cap %d", n, MaxTerms)
	}
}

func FuzzMatchExprShape(f *testing.F) {
	for _, s := range []string{"", "refund", `a"b`, "NEAR(x y)", "col:term", "\xff\xfe", "über*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := MatchExpr(s)
		if e == "" {
			return
		}
		for i, term := range strings.Split(e, " OR ") {
			if i >= MaxTerms || len(term) < 4 || term[0] != '"' || term[len(term)-1] != '"' || strings.Contains(term[1:len(term)-1], `"`) {
				t.Fatalf("MatchExpr(%q) = %q: bad term %q", s, e, term)
			}
		}
	})
}
