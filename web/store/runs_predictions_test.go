package store

import (
	"context"
	"reflect"
	"testing"
	"time"
)

// A run saved before labs could ask for two numbers reads back with its
// one prediction and no second; a run with two keeps both, in order.
func TestRunPredictionsOldAndNew(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.EnsureLearner(ctx, "alice", t0); err != nil {
		t.Fatal(err)
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO lab_runs (learner, lab, params, summary, created_at) VALUES (?, ?, ?, ?, ?)`,
		"alice", "streaming", `{}`, `{"stats":[],"prediction":{"value":400,"unit":"ms","stat":"first_word_ms"}}`, formatTime(t0))
	if err != nil {
		t.Fatal(err)
	}
	oldID, _ := res.LastInsertId()
	first := &Prediction{Value: 400, Unit: "ms", Stat: "first_word_ms"}
	second := &Prediction{Value: 0, Unit: "ms", Stat: "total_ms"} // 0 is a guess
	newID, err := s.SaveRun(ctx, Run{Learner: "alice", Lab: "streaming", CreatedAt: t0.Add(time.Second),
		Summary: Summary{Prediction: first, Second: second}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		id   int64
		want []Prediction
	}{
		{"saved before the second prediction", oldID, []Prediction{*first}},
		{"saved with two", newID, []Prediction{*first, *second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := s.GetRun(ctx, "alice", tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Summary.Predictions(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("predictions = %+v, want %+v", got, tc.want)
			}
		})
	}
}
