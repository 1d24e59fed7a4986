package pipelinelab

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// toyParams is a pipeline lab's params with one knob.
type toyParams struct{ Turns int }

func (toyParams) Check() []labs.FieldError { return nil }

func toyDefine(run func(context.Context, toyParams, func(labs.Frame)) error) (*labs.Kit[toyParams], error) {
	return labs.Define(labs.Spec[toyParams]{
		Info:     labs.Info{Slug: "toy"},
		Defaults: toyParams{Turns: 2},
		Knobs: []labs.Field[toyParams]{labs.Bind(labs.Knob{Name: "turns", Label: "Turns", Min: 0, Max: 9, Step: 1},
			func(p *toyParams) *int { return &p.Turns })},
		Run: run,
	})
}

func TestNewNumbersRunsAndConnectsTiers(t *testing.T) {
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	var runs []Run
	var turns []int
	l, err := New(Config{Engines: pool}, toyDefine, func(p toyParams) (int, error) { return p.Turns, nil },
		func(_ context.Context, r Run, n int, emit func(labs.Frame)) error {
			runs, turns = append(runs, r), append(turns, n)
			emit(labs.Frame{Final: true})
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []labs.Values{{}, {"turns": 5.0}} {
		if err := l.Run(context.Background(), raw, func(labs.Frame) {}); err != nil {
			t.Fatal(err)
		}
	}
	if len(runs) != 2 || runs[0].Seq != 1 || runs[1].Seq != 2 || runs[0].ID == runs[1].ID || !strings.HasPrefix(runs[0].ID, "toy-") {
		t.Errorf("runs %+v: want numbered 1 and 2 with distinct ids under the slug", runs)
	}
	if len(runs) == 2 && (len(runs[0].Tiers) != len(TierSpecs()) || turns[0] != 2 || turns[1] != 5) {
		t.Errorf("tiers %d, settings %v; want every tier and the derived settings", len(runs[0].Tiers), turns)
	}
	if len(runs) == 2 && runs[1].Engines != pool {
		t.Errorf("run wiring %+v: want the lab's Config passed on", runs[1].Config)
	}
}

func TestNewRefuses(t *testing.T) {
	run := func(context.Context, Run, int, func(labs.Frame)) error { return nil }
	derive := func(p toyParams) (int, error) { return p.Turns, nil }
	refused := errors.New("refused")
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	for _, tc := range []struct {
		name   string
		pool   *labs.Engines
		define func(func(context.Context, toyParams, func(labs.Frame)) error) (*labs.Kit[toyParams], error)
		want   string
	}{
		{"no engine pool", nil, toyDefine, "toy: no engine pool"},
		{"a refused kit", pool, func(func(context.Context, toyParams, func(labs.Frame)) error) (*labs.Kit[toyParams], error) {
			return nil, refused
		}, "refused"},
	} {
		if l, err := New(Config{Engines: tc.pool}, tc.define, derive, run); err == nil || l != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: New = %v, %v; want an error with %q", tc.name, l, err, tc.want)
		}
	}
}
