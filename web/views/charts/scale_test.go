package charts

import (
	"math"
	"slices"
	"testing"
)

func TestNiceStep(t *testing.T) {
	tests := []struct {
		span float64
		n    int
		want float64
	}{
		{412, 5, 100},
		{1, 5, 0.2},
		{6000, 6, 1000},
		{0.3, 3, 0.1},
		{97, 1, 100},
		{55, 4, 20},
		{0, 5, 1},          // degenerate spans get a usable step
		{math.NaN(), 5, 1}, // and so does bad input
	}
	for _, tt := range tests {
		if got := niceStep(tt.span, tt.n); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("niceStep(%v, %d) = %v, want %v", tt.span, tt.n, got, tt.want)
		}
	}
}

func TestNiceAxisTicks(t *testing.T) {
	tests := []struct {
		name           string
		lo, hi         float64
		maxTicks       int
		fixedHi        float64
		wantLo, wantHi float64
		want           []float64
	}{
		{"ttft ms", 0, 412, 6, 0, 0, 500, []float64{0, 100, 200, 300, 400, 500}},
		{"unit range", 0, 1, 6, 0, 0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{"all zero", 0, 0, 6, 0, 0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{"negative", -20, 35, 5, 0, -20, 40, []float64{-20, 0, 20, 40}},
		{"fixed end", 0, 5200, 7, 6000, 0, 6000, []float64{0, 1000, 2000, 3000, 4000, 5000, 6000}},
		{"fixed end off step", 0, 70, 5, 90, 0, 90, []float64{0, 20, 40, 60, 80}},
		{"single value", 3, 3, 6, 0, 0, 4, []float64{0, 1, 2, 3, 4}},
		{"single negative", -3, -3, 6, 0, -4, 0, []float64{-4, -3, -2, -1, 0}},
		{"NaN", math.NaN(), 1, 6, 0, 0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{"Inf", 0, math.Inf(1), 6, 0, 0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{"small", 0.001, 0.0042, 5, 0, 0.001, 0.005, []float64{0.001, 0.002, 0.003, 0.004, 0.005}},
		{"millions", 0, 1234567, 6, 0, 0, 1.5e6, []float64{0, 5e5, 1e6, 1.5e6}},
		{"reversed", 10, 0, 6, 0, 0, 10, []float64{0, 2, 4, 6, 8, 10}},
		{"fixed below data is ignored", 50, 80, 5, 10, 50, 80, []float64{50, 60, 70, 80}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := niceAxis(tt.lo, tt.hi, tt.maxTicks, tt.fixedHi)
			if a.lo != tt.wantLo || a.hi != tt.wantHi || !slices.Equal(a.ticks, tt.want) {
				t.Errorf("niceAxis = [%v, %v] %v, want [%v, %v] %v", a.lo, a.hi, a.ticks, tt.wantLo, tt.wantHi, tt.want)
			}
			if len(a.ticks) > tt.maxTicks {
				t.Errorf("%d ticks, budget %d", len(a.ticks), tt.maxTicks)
			}
		})
	}
}

func TestLogAxis(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{1, 256, []float64{1, 10, 100, 1000}},
		{3, 40, []float64{1, 2, 5, 10, 20, 50, 100}},
		{0, 0, []float64{1, 2, 5, 10}}, // nothing positive: one decade
		{5, 5, []float64{1, 2, 5, 10}},
	}
	for _, tt := range tests {
		if got := logAxis(tt.lo, tt.hi, 0).ticks; !slices.Equal(got, tt.want) {
			t.Errorf("logAxis(%v, %v) ticks = %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestLinScale(t *testing.T) {
	s := linScale{d0: 0, d1: 100, r0: 200, r1: 0}
	if got := s.pos(25); got != 150 {
		t.Errorf("pos(25) = %v, want 150", got)
	}
	l := linScale{d0: 1, d1: 1000, r0: 0, r1: 300, log: true}
	if got := l.pos(10); math.Abs(got-100) > 1e-9 {
		t.Errorf("log pos(10) = %v, want 100", got)
	}
	z := linScale{d0: 5, d1: 5, r0: 0, r1: 10}
	if got := z.pos(5); got != 5 {
		t.Errorf("zero-span pos = %v, want the middle 5", got)
	}
}
