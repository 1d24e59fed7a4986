package labs

import (
	"context"
	"errors"
	"testing"
)

func TestSettledDerivesBeforeTheRun(t *testing.T) {
	bad := errors.New("no such tier")
	for _, tc := range []struct {
		name    string
		derive  func(int) (string, error)
		wantErr error
		wantRun string // what the run was given; "" when it must not run
	}{
		{"derived", func(n int) (string, error) { return string(rune('a' + n)), nil }, nil, "c"},
		{"derivation fails", func(int) (string, error) { return "", bad }, bad, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			run := Settled(tc.derive, func(_ context.Context, s string, emit func(Frame)) error {
				got = s
				emit(Frame{Final: true})
				return nil
			})
			err := run(context.Background(), 2, func(Frame) {})
			if !errors.Is(err, tc.wantErr) || got != tc.wantRun {
				t.Errorf("err %v, run got %q; want %v, %q", err, got, tc.wantErr, tc.wantRun)
			}
		})
	}
}

func TestAttachStoresTheKit(t *testing.T) {
	type lab struct{ *Kit[toyParams] }
	var got toyParams
	l := &lab{}
	out, err := Attach(l, &l.Kit)(Define(toySpec(&got)))
	if err != nil || out != l || l.Kit == nil || l.Info().Slug != "toy" {
		t.Fatalf("Attach = %v, %v; kit %v", out, err, l.Kit)
	}
	bad := toySpec(&got)
	bad.Run = nil
	l2 := &lab{}
	if out, err := Attach(l2, &l2.Kit)(Define(bad)); err == nil || out != nil || l2.Kit != nil {
		t.Errorf("a refused spec: Attach = %v, %v; kit %v", out, err, l2.Kit)
	}
}
