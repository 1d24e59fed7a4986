package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// openSeeded opens a fresh temp-file database and seeds the support desk.
func openSeeded(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "desk.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.SeedSupportDesk(context.Background()); err != nil {
		t.Fatalf("SeedSupportDesk: %v", err)
	}
	return s, path
}

func TestSeedIsIdempotentAndSized(t *testing.T) {
	ctx := context.Background()
	s, path := openSeeded(t)
	first, err := s.KnowledgeBaseStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("knowledge base %s: %d articles, %d chunks", first.Version, first.Articles, first.Chunks)
	if first.Chunks < 200 || first.Chunks > 400 || first.Articles < 45 {
		t.Fatalf("stats %+v, want 200..400 chunks from 45+ articles", first)
	}
	counts := func(s *Store) string {
		var a, c, f, o int
		if err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM kb_articles), (SELECT count(*) FROM kb_chunks),
			(SELECT count(*) FROM kb_fts), (SELECT count(*) FROM orders)`).Scan(&a, &c, &f, &o); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("articles=%d chunks=%d fts=%d orders=%d", a, c, f, o)
	}
	want := counts(s)
	if err := s.SeedSupportDesk(ctx); err != nil {
		t.Fatal(err)
	}
	if got := counts(s); got != want {
		t.Fatalf("after re-seed %s, want %s", got, want)
	}
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.SeedSupportDesk(ctx); err != nil {
		t.Fatal(err)
	}
	if got := counts(s2); got != want {
		t.Fatalf("after reopen and re-seed %s, want %s", got, want)
	}
}

func TestChangedContentReindexes(t *testing.T) {
	ctx := context.Background()
	s, _ := openSeeded(t)
	// Pretend the database holds an older knowledge base with an extra row.
	if _, err := s.db.ExecContext(ctx, `UPDATE support_seed SET version = 'old' WHERE part = 'kb'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO kb_fts (rowid, title, text) VALUES (999999, 'Stale', 'zebra stale passage')`); err != nil {
		t.Fatal(err)
	}
	if err := s.SeedSupportDesk(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.Retrieve(ctx, "zebra", 5)
	if err != nil || len(got) != 0 {
		t.Fatalf("stale passage survived re-index: %v, %v", got, err)
	}
}

func TestRetrieveRanksTheRightArticleFirst(t *testing.T) {
	s, _ := openSeeded(t)
	tests := []struct {
		question, article string
	}{
		{"how long do refunds take", "How long refunds take"},
		{"my card was declined", "Why was my card declined"},
		{"can I return a worn jacket", "Returning worn or used items"},
		{"where is my order NW-10452", "Tracking your order"},
		{"Do you ship to Germany? Will I pay customs duties?", "Customs, duties and import taxes"},
		{"I forgot my password", "Resetting your password"},
		{"how do I turn on two-factor authentication", "Two-factor authentication"},
		{"the package says delivered but it's not here", "Tracking says delivered but I don't have it"},
		{"my promo code is not working", "Why a promo code does not work"},
		{"how do I wash my down jacket", "Caring for down jackets and merino wool"},
		{"what does the warranty cover", "Our two-year warranty"},
		{"delete my account and personal data", "Deleting your account and data"},
		{"what time is support open", "Contact us and support hours"},
		{"can I pick up my order in store", "Buy online, pick up in store"},
		{"how much is overnight shipping", "Shipping options and costs in the US"},
		{"do gift cards expire", "Gift cards"},
		{"my jacket arrived damaged", "Damaged or defective items on arrival"},
		{"do you price match", "Price matching other retailers"},
		{"cancel my Sock Club subscription", "Sock Club subscription"},
		{"exchange for a bigger size", "Exchanging for a different size or colour"},
		{"the zipper broke on my jacket, is that covered?", "Our two-year warranty"},
		{"someone stole my package", "Stolen packages and porch theft"},
		{"lost my phone and can't log in", "Two-factor authentication"},
		{"do you accept paypal", "Payment methods we accept"},
		{"I was charged twice", "Pending charges and authorisation holds"},
		{"we are a school, can we buy tax free", "Sales tax"},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			got, err := s.Retrieve(context.Background(), tt.question, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || got[0].Article != tt.article {
				var titles []string
				for _, c := range got {
					titles = append(titles, fmt.Sprintf("%s (%.2f)", c.Article, c.Score))
				}
				t.Fatalf("top articles %q, want %q first", titles, tt.article)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Score > got[i-1].Score || got[i].Score <= 0 {
					t.Fatalf("scores not positive and descending: %v", got)
				}
			}
		})
	}
}

func TestRetrieveClampsK(t *testing.T) {
	s, _ := openSeeded(t)
	// "order" and "shipping" match far more than MaxRetrieve passages.
	q := "order shipping return refund card"
	tests := []struct{ k, want int }{{-3, 0}, {0, 0}, {1, 1}, {5, 5}, {20, 20}, {50, 50}, {500, MaxRetrieve}}
	for _, tt := range tests {
		got, err := s.Retrieve(context.Background(), q, tt.k)
		if err != nil || len(got) != tt.want {
			t.Errorf("Retrieve(k=%d) = %d chunks, %v; want %d", tt.k, len(got), err, tt.want)
		}
	}
	for _, q := range []string{"", "   ", "how do I?", "!!!", "zzzxqj"} {
		got, err := s.Retrieve(context.Background(), q, 5)
		if err != nil || len(got) != 0 {
			t.Errorf("Retrieve(%q) = %v, %v; want nothing, no error", q, got, err)
		}
	}
}

func TestRetrieveUnseededSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Retrieve(context.Background(), "refund", 5); !errors.Is(err, ErrNotSeeded) {
		t.Fatalf("Retrieve on an unseeded store: %v, want ErrNotSeeded", err)
	}
}

func TestCancelledContext(t *testing.T) {
	s, _ := openSeeded(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Retrieve(ctx, "refund", 5); !errors.Is(err, context.Canceled) {
		t.Errorf("Retrieve: %v, want context.Canceled", err)
	}
	if _, err := s.LookupOrder(ctx, "cust-ada", "where is it"); !errors.Is(err, context.Canceled) {
		t.Errorf("LookupOrder: %v, want context.Canceled", err)
	}
	if _, err := s.RecentTurns(ctx, "c1", 5); !errors.Is(err, context.Canceled) {
		t.Errorf("RecentTurns: %v, want context.Canceled", err)
	}
	if err := s.SeedSupportDesk(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("SeedSupportDesk: %v, want context.Canceled", err)
	}
	if _, err := s.CreateConversation(ctx, "learner"); !errors.Is(err, context.Canceled) {
		t.Errorf("CreateConversation: %v, want context.Canceled", err)
	}
}

// FuzzRetrieve proves no user text makes the search fail or panic.
func FuzzRetrieve(f *testing.F) {
	for _, s := range []string{"", "refund", `"`, `a" OR "b`, "NEAR(a b)", "title:x", "*", "^start", "-x +y",
		"AND OR NOT", "(((", "\x00", "\xff\xfe", "naïve café", "日本語の質問", "NW-10452?", strings.Repeat("z", 5000)} {
		f.Add(s)
	}
	s, _ := openSeeded(f)
	f.Fuzz(func(t *testing.T, q string) {
		got, err := s.Retrieve(context.Background(), q, 5)
		if err != nil {
			t.Fatalf("Retrieve(%q): %v", q, err)
		}
		for _, c := range got {
			if c.Article == "" || !utf8.ValidString(c.Text) {
				t.Fatalf("Retrieve(%q) returned a bad chunk %+v", q, c)
			}
		}
	})
}

func BenchmarkRetrieve(b *testing.B) {
	s, _ := openSeeded(b)
	questions := []string{
		"how long do refunds take",
		"my card was declined at checkout, what should I do?",
		"can I return a worn jacket",
		"where is my order NW-10452",
		"do you ship to Canada and do I pay duties",
	}
	for _, k := range []int{5, 20} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if _, err := s.Retrieve(ctx, questions[i%len(questions)], k); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// TestConcurrentSeedAndRetrieve opens two handles on one file, as two
// processes would, and seeds from both at once while searching: the write
// lock taken up front makes one seed wait for the other instead of failing.
func TestConcurrentSeedAndRetrieve(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	errs := make(chan error, 2)
	for _, s := range []*Store{a, b} {
		go func() { errs <- s.SeedSupportDesk(ctx) }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent seed: %v", err)
		}
	}
	want, err := a.KnowledgeBaseStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var g sync.WaitGroup
	fails := make(chan string, 8)
	for i := range 8 {
		g.Go(func() {
			s := []*Store{a, b}[i%2]
			got, err := s.Retrieve(ctx, "how long do refunds take", 5)
			if err != nil || len(got) != 5 || got[0].Article != "How long refunds take" {
				fails <- fmt.Sprintf("parallel retrieve %d: %d chunks, %v", i, len(got), err)
			}
		})
	}
	g.Wait()
	close(fails)
	for f := range fails {
		t.Error(f)
	}
	got, err := b.KnowledgeBaseStats(ctx)
	if err != nil || got != want {
		t.Fatalf("stats from the other handle %+v, %v; want %+v", got, err, want)
	}
}
