package store

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/latencylab/latencylab/labs"
)

func TestRunPanelsRoundTripAndOldRows(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	// A row as saved before migration 0144: no panels, no reflection.
	if err := s.EnsureLearner(ctx, "alice", t0); err != nil {
		t.Fatal(err)
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO lab_runs (learner, lab, params, summary, created_at) VALUES (?, ?, ?, ?, ?)`,
		"alice", "streaming", `{"tokens":100}`, `{"stats":[{"Key":"ttft","Label":"TTFT","Value":250,"Unit":"ms","Note":""}]}`, formatTime(t0))
	if err != nil {
		t.Fatal(err)
	}
	oldID, _ := res.LastInsertId()
	panels := &Panels{
		Text:   &labs.TextPanel{Title: "Answer", Body: "hello", Marks: []labs.Mark{{Label: "first word", At: 412}}},
		Charts: []labs.Chart{{ID: "ttft", Title: "TTFT", Kind: labs.ChartLine, Series: []labs.Series{{Name: "ttft", Points: []labs.Point{{X: 1, Y: 2}, {X: 2, Y: 3}}}}}},
		Tables: []labs.Table{{Title: "Runs", Columns: []string{"a", "b"}, Rows: [][]string{{"1", "2"}}}},
	}
	newID, err := s.SaveRun(ctx, Run{Learner: "alice", Lab: "streaming", CreatedAt: t0.Add(time.Second),
		Params: labs.Values{"tokens": 200.0}, Panels: panels, Reflection: "  queueing   dominated\n TTFT "})
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		id         int64
		wantPanels *Panels
		wantRefl   string
		wantSeq    int
	}{
		{"old row without panels", oldID, nil, "", 1},
		{"new row with panels", newID, panels, "queueing dominated TTFT", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := s.GetRun(ctx, "alice", tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Panels, tc.wantPanels) {
				t.Errorf("panels = %+v, want %+v", r.Panels, tc.wantPanels)
			}
			if r.Reflection != tc.wantRefl || r.Seq != tc.wantSeq || r.Lab != "streaming" {
				t.Errorf("reflection %q seq %d lab %q, want %q %d streaming", r.Reflection, r.Seq, r.Lab, tc.wantRefl, tc.wantSeq)
			}
		})
	}
	list, err := s.ListRuns(ctx, "alice", "streaming", 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("list = %v, %v; want both runs", list, err)
	}
	if list[0].ID != newID || list[0].Seq != 2 || list[1].Seq != 1 || list[0].Reflection != "queueing dominated TTFT" || list[0].Panels != nil {
		t.Errorf("list = %+v; want newest first, seq 2 then 1, reflection, no panels loaded", list)
	}
	if list[1].Summary.Stats[0].Value != 250 {
		t.Errorf("old row summary = %+v", list[1].Summary)
	}
}

func TestGetRunAndReflectionOwnership(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	id, err := s.SaveRun(ctx, Run{Learner: "alice", Lab: "batching", CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		learner string
		id      int64
		text    string
		want    error
		stored  string
	}{
		{"owner saves", "alice", id, " surprised by queueing ", nil, "surprised by queueing"},
		{"owner clears with blanks", "alice", id, "   ", nil, ""},
		{"exactly the limit", "alice", id, strings.Repeat("é", MaxReflectionRunes), nil, strings.Repeat("é", MaxReflectionRunes)},
		{"one over the limit", "alice", id, strings.Repeat("é", MaxReflectionRunes+1), ErrInvalid, strings.Repeat("é", MaxReflectionRunes)},
		{"control character", "alice", id, "a\x00b", ErrInvalid, strings.Repeat("é", MaxReflectionRunes)},
		{"another learner", "bob", id, "mine now", ErrRunNotFound, strings.Repeat("é", MaxReflectionRunes)},
		{"unknown id", "alice", id + 99, "x", ErrRunNotFound, strings.Repeat("é", MaxReflectionRunes)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.SetReflection(ctx, tc.learner, tc.id, tc.text)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("SetReflection = %v, want %v", err, tc.want)
			}
			r, err := s.GetRun(ctx, "alice", id)
			if err != nil || r.Reflection != tc.stored {
				t.Errorf("stored %q, %v; want %q", r.Reflection, err, tc.stored)
			}
		})
	}
	if _, err := s.GetRun(ctx, "bob", id); !errors.Is(err, ErrRunNotFound) {
		t.Errorf("bob reads alice's run: %v", err)
	}
}

func TestSavedPanelsAreBounded(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	big := make([]labs.Point, 300_000)
	for i := range big {
		big[i] = labs.Point{X: float64(i), Y: float64(i % 97)}
	}
	big[123_457].Y = 10_000 // a spike thinning must keep
	big[5] = labs.Point{X: math.NaN(), Y: 1}
	rows := make([]labs.SpanRow, 5000)
	for i := range rows {
		rows[i] = labs.SpanRow{Label: "r", Spans: []labs.Span{{Name: "decode", Start: 0, End: math.Inf(1)}, {Name: "prefill", Start: 0, End: 1}}}
	}
	p := &Panels{Charts: []labs.Chart{
		{ID: "big", Kind: labs.ChartLine, YMax: math.NaN(), Series: []labs.Series{{Name: "tpot", Points: big}, {Name: "small", Points: big[:10]}}},
		{ID: "tl", Kind: labs.ChartTimeline, Rows: rows},
	}}
	id, err := s.SaveRun(ctx, Run{Learner: "a", Lab: "batching", CreatedAt: t0, Panels: p})
	if err != nil {
		t.Fatal(err)
	}
	var size int
	if err := s.db.QueryRowContext(ctx, `SELECT length(panels) FROM lab_runs WHERE id = ?`, id).Scan(&size); err != nil {
		t.Fatal(err)
	}
	if size > MaxPanelsBytes {
		t.Errorf("saved panels are %d bytes, cap %d", size, MaxPanelsBytes)
	}
	r, err := s.GetRun(ctx, "a", id)
	if err != nil || r.Panels == nil {
		t.Fatalf("GetRun: %v, panels %v", err, r.Panels)
	}
	got := r.Panels.Charts[0].Series[0].Points
	if len(got) > MaxSeriesPoints || len(got) < MaxSeriesPoints/2 {
		t.Errorf("thinned series has %d points, want ≤ %d and not far below", len(got), MaxSeriesPoints)
	}
	if len(r.Panels.Charts[0].Series[1].Points) != 9 {
		t.Errorf("small series: %d points, want its 9 finite ones kept", len(r.Panels.Charts[0].Series[1].Points))
	}
	peak := 0.0
	for i, pt := range got {
		peak = max(peak, pt.Y)
		if i > 0 && pt.X < got[i-1].X {
			t.Fatalf("thinned points out of order at %d", i)
		}
	}
	if peak != 10_000 || got[0].X != 0 || got[len(got)-1].X != float64(len(big)-1) {
		t.Errorf("thinning lost the spike (peak %v) or the ends (%v … %v)", peak, got[0].X, got[len(got)-1].X)
	}
	if n := len(r.Panels.Charts[1].Rows); n > MaxTimelineRows || len(r.Panels.Charts[1].Rows[0].Spans) != 1 {
		t.Errorf("timeline rows %d (cap %d), spans of a row %d (want the finite one)", n, MaxTimelineRows, len(r.Panels.Charts[1].Rows[0].Spans))
	}
	if !r.Panels.Thinned {
		t.Error("thinned panels are not marked Thinned")
	}
	// The caller's frame is not changed by saving it.
	if len(p.Charts[0].Series[0].Points) != len(big) {
		t.Error("SaveRun changed the caller's panels")
	}
}

func BenchmarkSaveLargePanels(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir()+"/bench.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	pts := make([]labs.Point, 100_000)
	for i := range pts {
		pts[i] = labs.Point{X: float64(i), Y: float64(i % 31)}
	}
	p := &Panels{Charts: []labs.Chart{{ID: "c", Kind: labs.ChartLine, Series: []labs.Series{{Name: "a", Points: pts}, {Name: "b", Points: pts}}}}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := s.SaveRun(ctx, Run{Learner: "a", Lab: "batching", CreatedAt: t0.Add(time.Duration(i)), Panels: p}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCleanReflection checks that whatever a form sends, a kept reflection
// is one trimmed line within the limit, and cleaning it again changes nothing.
func FuzzCleanReflection(f *testing.F) {
	for _, s := range []string{"", "  a  b \n c ", strings.Repeat("é", 281), "tab\there", "nul\x00", "\xff\xfe", "\u2028line sep"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := cleanReflection(in)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		if utf8.RuneCountInString(out) > MaxReflectionRunes || strings.ContainsAny(out, "\n\r\t") || out != strings.TrimSpace(out) {
			t.Fatalf("kept %q", out)
		}
		if again, err := cleanReflection(out); err != nil || again != out {
			t.Fatalf("not idempotent: %q → %q, %v", out, again, err)
		}
	})
}
