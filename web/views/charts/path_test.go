package charts

import (
	"math"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

func TestSegmentsAndPaths(t *testing.T) {
	xs := linScale{d0: 0, d1: 10, r0: 0, r1: 100}
	ys := linScale{d0: 0, d1: 10, r0: 100, r1: 0}
	tests := []struct {
		name     string
		pts      []labs.Point
		segs     int
		line     string
		area     string
		logScale bool
	}{
		{"plain", []labs.Point{{X: 0, Y: 0}, {X: 5, Y: 5}, {X: 10, Y: 10}}, 1, "M0 100L50 50L100 0", "M0 100L0 100L50 50L100 0L100 100Z", false},
		{"NaN splits", []labs.Point{{X: 0, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: math.NaN()}, {X: 3, Y: 3}, {X: 4, Y: 4}}, 2, "M0 100L10 90M30 70L40 60", "M0 100L0 100L10 90L10 100ZM30 100L30 70L40 60L40 100Z", false},
		{"Inf splits, lone points draw no line", []labs.Point{{X: 1, Y: 1}, {X: 2, Y: math.Inf(1)}, {X: 3, Y: 3}}, 2, "", "", false},
		{"duplicates dropped", []labs.Point{{X: 1, Y: 1}, {X: 1.001, Y: 1.001}, {X: 2, Y: 2}}, 1, "M10 90L20 80", "M10 100L10 90L20 80L20 100Z", false},
		{"empty", nil, 0, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			segs := segments(tt.pts, xs, ys)
			if len(segs) != tt.segs {
				t.Fatalf("%d segments, want %d", len(segs), tt.segs)
			}
			if got := linePath(segs); got != tt.line {
				t.Errorf("linePath = %q, want %q", got, tt.line)
			}
			if got := areaPath(segs, 100); got != tt.area {
				t.Errorf("areaPath = %q, want %q", got, tt.area)
			}
		})
	}
}

func TestSegmentsLogSkipsNonPositive(t *testing.T) {
	xs := linScale{d0: 1, d1: 100, r0: 0, r1: 100, log: true}
	ys := linScale{d0: 0, d1: 10, r0: 100, r1: 0}
	segs := segments([]labs.Point{{X: 0, Y: 1}, {X: 1, Y: 1}, {X: 10, Y: 2}, {X: -3, Y: 4}, {X: 100, Y: 3}}, xs, ys)
	if len(segs) != 2 || len(segs[0]) != 2 || len(segs[1]) != 1 {
		t.Fatalf("segments = %v, want [2 points] [1 point]", segs)
	}
}

func TestThinKeepsExtremes(t *testing.T) {
	// 1000 samples over 10 units: each half-unit column holds 50 samples.
	var seg []pt
	for i := 0; i < 1000; i++ {
		y := float64(i % 50)
		if i == 321 {
			y = -40 // a spike must survive thinning
		}
		seg = append(seg, pt{x: float64(i) / 100, y: y})
	}
	got := thin(seg)
	if len(got) > 4*20 {
		t.Errorf("thin kept %d points, want at most 80", len(got))
	}
	if got[0] != seg[0] || got[len(got)-1] != seg[len(seg)-1] {
		t.Errorf("thin dropped an end point")
	}
	spike := false
	for i, p := range got {
		if p.y == -40 {
			spike = true
		}
		if i > 0 && p.x < got[i-1].x {
			t.Fatalf("thin reordered points at %d", i)
		}
	}
	if !spike {
		t.Errorf("thin dropped the spike")
	}
	short := seg[:3]
	if len(thin(short)) != 3 {
		t.Errorf("thin changed a short segment")
	}
}

func TestAppendNumMatchesNum(t *testing.T) {
	for _, v := range []float64{0, -0.04, 0.04, 12, 12.25, 12.35, -7.5, 439.96, 1e6} {
		if got, want := string(appendNum(nil, v)), num(v); got != want {
			t.Errorf("appendNum(%v) = %q, num = %q", v, got, want)
		}
	}
}
