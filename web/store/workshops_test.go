package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

func newWorkshop(t *testing.T, s *Store, code string, capacity int) {
	t.Helper()
	if err := s.CreateWorkshop(context.Background(), Workshop{Code: code, Name: "Room " + code, SecretHash: "ab", SizeCap: capacity, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
}

func learnerN(i int) string { return fmt.Sprintf("%032x", i+1) }

func TestJoinWorkshopNamesAndLimits(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	newWorkshop(t, s, "ABC234", 4)
	if err := s.CreateWorkshop(ctx, Workshop{Code: "ABC234", Name: "x", SecretHash: "ab", SizeCap: 1, CreatedAt: t0}); !errors.Is(err, ErrCodeTaken) {
		t.Fatalf("duplicate code: %v, want ErrCodeTaken", err)
	}
	tests := []struct {
		learner, name, want string
		err                 error
	}{
		{learnerN(0), "Ana", "Ana", nil},
		{learnerN(1), "ana", "ana 2", nil}, // names are unique ignoring case
		{learnerN(2), "Ana", "Ana 3", nil},
		{learnerN(0), "Someone else", "Ana", nil}, // rejoining keeps the name
		{learnerN(3), strings.Repeat("é", MaxMemberName), strings.Repeat("é", MaxMemberName), nil},
		{learnerN(4), "Late", "", ErrWorkshopFull},
		{learnerN(5), strings.Repeat("x", MaxMemberName+1), "", ErrInvalid},
		{learnerN(6), "", "", ErrInvalid},
	}
	for _, tc := range tests {
		m, err := s.JoinWorkshop(ctx, "ABC234", tc.learner, tc.name, t0)
		if !errors.Is(err, tc.err) || m.Name != tc.want {
			t.Errorf("join %s as %q = %q, %v; want %q, %v", tc.learner[28:], tc.name, m.Name, err, tc.want, tc.err)
		}
	}
	if _, err := s.JoinWorkshop(ctx, "NOPE22", learnerN(9), "Bo", t0); !errors.Is(err, ErrWorkshopNotFound) {
		t.Errorf("unknown code: %v, want ErrWorkshopNotFound", err)
	}
	if err := s.EndWorkshop(ctx, "ABC234", t0); err != nil {
		t.Fatal(err)
	}
	newWorkshop(t, s, "ENDED2", 10)
	if err := s.EndWorkshop(ctx, "ENDED2", t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinWorkshop(ctx, "ENDED2", learnerN(9), "Bo", t0); !errors.Is(err, ErrWorkshopEnded) {
		t.Errorf("ended: %v, want ErrWorkshopEnded", err)
	}
	if _, err := s.PushLab(ctx, "ENDED2", "streaming", "x", t0); !errors.Is(err, ErrWorkshopEnded) {
		t.Errorf("push to ended: %v, want ErrWorkshopEnded", err)
	}
	ms, err := s.Members(ctx, "ABC234")
	if err != nil || len(ms) != 4 {
		t.Fatalf("members = %d, %v; want 4", len(ms), err)
	}
}

func TestWithSuffixFitsTheLimit(t *testing.T) {
	long := strings.Repeat("n", MaxMemberName)
	for _, tc := range []struct {
		name string
		n    int
		want string
	}{
		{"Bo", 1, "Bo"},
		{"Bo", 12, "Bo 12"},
		{long, 2, strings.Repeat("n", MaxMemberName-2) + " 2"},
	} {
		if got := withSuffix(tc.name, tc.n); got != tc.want || len([]rune(got)) > MaxMemberName {
			t.Errorf("withSuffix(%q, %d) = %q, want %q", tc.name, tc.n, got, tc.want)
		}
	}
}

func TestConcurrentJoinsNeverOverfill(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	newWorkshop(t, s, "FULL22", 10)
	var wg sync.WaitGroup
	var mu sync.Mutex
	joined, full := 0, 0
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.JoinWorkshop(ctx, "FULL22", learnerN(i), "Same", t0)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				joined++
			case errors.Is(err, ErrWorkshopFull):
				full++
			default:
				t.Errorf("join %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if joined != 10 || full != 20 {
		t.Fatalf("joined %d, full %d; want 10 and 20", joined, full)
	}
}

func TestWorkshopRoundsAndRunsSurviveReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	newWorkshop(t, s, "RND234", 10)
	if _, err := s.JoinWorkshop(ctx, "RND234", learnerN(0), "Ana", t0); err != nil {
		t.Fatal(err)
	}
	seq, err := s.PushLab(ctx, "RND234", "streaming", "Huge prompt", t0)
	if err != nil || seq != 1 {
		t.Fatalf("push = %d, %v; want round 1", seq, err)
	}
	if err := s.UpdateWorkshopSettings(ctx, "RND234", WorkshopSettings{Locked: true, LoadRPS: 3}, t0); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		id, err := s.SaveRun(ctx, Run{Learner: learnerN(0), Lab: "streaming", CreatedAt: t0,
			Summary: Summary{Stats: []labs.Stat{{Key: "ttft", Value: float64(100 * (i + 1))}}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SaveWorkshopRun(ctx, "RND234", id, learnerN(0), "Huge prompt", seq, i); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	w, err := s2.GetWorkshop(ctx, "RND234")
	if err != nil || w.PushedLab != "streaming" || w.PushedPreset != "Huge prompt" || !w.LockedAt.Equal(t0) || w.LoadRPS != 3 || w.PushSeq != 1 {
		t.Fatalf("after reopen workshop = %+v, %v", w, err)
	}
	all, err := s2.WorkshopRuns(ctx, "RND234", WorkshopRunsFilter{})
	if err != nil || len(all) != 3 || all[0].Name != "Ana" || all[2].SharedWith != 2 || all[0].Summary.Stats[0].Value != 100 {
		t.Fatalf("runs = %+v, %v", all, err)
	}
	latest, err := s2.WorkshopRuns(ctx, "RND234", WorkshopRunsFilter{Round: 1, Limit: 2})
	if err != nil || len(latest) != 2 || latest[0].ID != all[2].ID {
		t.Fatalf("latest 2 = %+v, %v", latest, err)
	}
	if none, _ := s2.WorkshopRuns(ctx, "RND234", WorkshopRunsFilter{Round: 2}); len(none) != 0 {
		t.Fatalf("round 2 has %d runs, want 0", len(none))
	}
	act, err := s2.ActiveWorkshops(ctx)
	if err != nil || len(act) != 1 {
		t.Fatalf("active = %v, %v", act, err)
	}
}
