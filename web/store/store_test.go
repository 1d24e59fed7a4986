package store

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestMigrationsAreRecordedAndIdempotent(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if err := s.SetLessonDone(ctx, "l1", "ttft", true, t0); err != nil {
		t.Fatal(err)
	}
	first, err := s.Migrations(ctx)
	if err != nil || len(first) == 0 || first[0] != 1 {
		t.Fatalf("migrations = %v, %v; want to start at 1", first, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	again, err := s2.Migrations(ctx)
	if err != nil || !reflect.DeepEqual(first, again) {
		t.Fatalf("after reopen migrations = %v, %v; want %v", again, err, first)
	}
	done, err := s2.DoneLessons(ctx, "l1")
	if err != nil || !done["ttft"].Equal(t0) {
		t.Fatalf("progress lost across reopen: %v, %v", done, err)
	}
}

func TestRunsNewestFirstAndIsolated(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for i := range 7 {
		r := Run{Learner: "alice", Lab: "streaming", CreatedAt: t0.Add(time.Duration(i) * time.Second),
			Params: labs.Values{"answerTokens": float64(100 * (i + 1)), "streaming": i%2 == 0},
			Summary: Summary{Stats: []labs.Stat{{Key: "ttft", Label: "TTFT", Value: float64(i), Unit: "ms"}},
				Prediction: &Prediction{Value: 300, Unit: "ms", Stat: "ttft"}}}
		if _, err := s.SaveRun(ctx, r); err != nil {
			t.Fatalf("SaveRun %d: %v", i, err)
		}
	}
	if _, err := s.SaveRun(ctx, Run{Learner: "bob", Lab: "streaming", CreatedAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveRun(ctx, Run{Learner: "alice", Lab: "batching", CreatedAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	runs, err := s.ListRuns(ctx, "alice", "streaming", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 5 {
		t.Fatalf("got %d runs, want 5", len(runs))
	}
	for i, r := range runs {
		wantTokens := float64(100 * (7 - i))
		if r.Params["answerTokens"] != wantTokens || r.Learner != "alice" || r.Lab != "streaming" {
			t.Errorf("run %d = %+v; want answerTokens %v of alice/streaming", i, r, wantTokens)
		}
	}
	if runs[0].Summary.Prediction == nil || runs[0].Summary.Prediction.Value != 300 || runs[0].Summary.Stats[0].Value != 6 {
		t.Errorf("summary round trip: %+v", runs[0].Summary)
	}
	if !runs[0].CreatedAt.Equal(t0.Add(6 * time.Second)) {
		t.Errorf("created_at = %v", runs[0].CreatedAt)
	}
	bob, _ := s.ListRuns(ctx, "bob", "streaming", 10)
	if len(bob) != 1 || bob[0].Params == nil {
		t.Errorf("bob sees %d runs (%+v), want only his 1", len(bob), bob)
	}
	none, err := s.ListRuns(ctx, "carol", "streaming", 10)
	if err != nil || len(none) != 0 {
		t.Errorf("carol: %v, %v", none, err)
	}
}

func TestProgressAndDrillsPerLearner(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.SetLessonDone(ctx, "alice", "ttft", true, t0))
	must(s.SetLessonDone(ctx, "alice", "ttft", true, t0.Add(time.Hour))) // idempotent, keeps first time
	must(s.SetLessonDone(ctx, "alice", "batching", true, t0))
	must(s.SetLessonDone(ctx, "alice", "batching", false, t0))
	must(s.SaveDrillAnswer(ctx, "alice", "ttft", "  first answer ", t0))
	must(s.SaveDrillAnswer(ctx, "alice", "ttft", "second <b>answer</b>", t0))

	done, err := s.DoneLessons(ctx, "alice")
	must(err)
	if len(done) != 1 || !done["ttft"].Equal(t0) {
		t.Errorf("alice done = %v", done)
	}
	if other, _ := s.DoneLessons(ctx, "bob"); len(other) != 0 {
		t.Errorf("bob sees alice's progress: %v", other)
	}
	ans, ok, err := s.DrillAnswer(ctx, "alice", "ttft")
	if err != nil || !ok || ans != "second <b>answer</b>" {
		t.Errorf("answer = %q %v %v", ans, ok, err)
	}
	if _, ok, _ := s.DrillAnswer(ctx, "bob", "ttft"); ok {
		t.Error("bob sees alice's answer")
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	long := strings.Repeat("x", MaxIDLen+1)
	cases := []struct {
		name string
		err  error
	}{
		{"empty learner", s.SetLessonDone(ctx, "", "ttft", true, t0)},
		{"empty lesson", s.SetLessonDone(ctx, "a", "", true, t0)},
		{"long learner", s.EnsureLearner(ctx, long, t0)},
		{"empty answer", s.SaveDrillAnswer(ctx, "a", "ttft", "   ", t0)},
		{"huge answer", s.SaveDrillAnswer(ctx, "a", "ttft", strings.Repeat("y", MaxAnswerLen+1), t0)},
		{"bad utf8", s.SaveDrillAnswer(ctx, "a", "ttft", "\xff\xfe", t0)},
	}
	for _, c := range cases {
		if !errors.Is(c.err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", c.name, c.err)
		}
	}
	if _, err := s.SaveRun(ctx, Run{Learner: "a", Lab: "", CreatedAt: t0}); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty lab: %v", err)
	}
	if _, err := s.SaveRun(ctx, Run{Learner: "a", Lab: "x"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("no time: %v", err)
	}
	nan := Run{Learner: "a", Lab: "x", CreatedAt: t0, Summary: Summary{Stats: []labs.Stat{{Key: "k", Value: math.NaN()}}}}
	if _, err := s.SaveRun(ctx, nan); !errors.Is(err, ErrInvalid) {
		t.Errorf("NaN stat: %v", err)
	}
	for _, limit := range []int{0, -1, MaxListRuns + 1} {
		if _, err := s.ListRuns(ctx, "a", "x", limit); !errors.Is(err, ErrInvalid) {
			t.Errorf("limit %d: %v", limit, err)
		}
	}
	if _, err := Open(ctx, " "); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty path: %v", err)
	}
	if _, err := Open(ctx, filepath.Join(t.TempDir(), "missing-dir", "x.db")); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
}
