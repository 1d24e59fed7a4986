package charts

import (
	"math"
	"strings"

	"github.com/latencylab/latencylab/labs"
)

// pt is a point in viewBox units with the sample it came from.
type pt struct {
	x, y float64
	src  labs.Point
}

// segments maps points to the viewBox and splits them where a sample is
// missing (NaN, infinite, or not positive on a log axis), so gaps show as
// gaps rather than as lines through zero. Points that land on the same
// tenth of a unit as their predecessor are dropped: long series stay small
// on the wire.
func segments(ps []labs.Point, xs, ys linScale) [][]pt {
	var out [][]pt
	var cur []pt
	for _, p := range ps {
		if !finite(p.X) || !finite(p.Y) || (xs.log && p.X <= 0) {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		q := pt{x: round1(xs.pos(p.X)), y: round1(ys.pos(p.Y)), src: p}
		if n := len(cur); n > 0 && cur[n-1].x == q.x && cur[n-1].y == q.y {
			continue
		}
		cur = append(cur, q)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// linePath is SVG path data joining the points of each segment.
func linePath(segs [][]pt) string {
	var b strings.Builder
	for _, seg := range segs {
		if len(seg) < 2 {
			continue
		}
		for i, p := range seg {
			if i == 0 {
				b.WriteByte('M')
			} else {
				b.WriteByte('L')
			}
			b.WriteString(num(p.x))
			b.WriteByte(' ')
			b.WriteString(num(p.y))
		}
	}
	return b.String()
}

// areaPath is SVG path data filling each segment down to the baseline y.
func areaPath(segs [][]pt, base float64) string {
	var b strings.Builder
	for _, seg := range segs {
		if len(seg) < 2 {
			continue
		}
		b.WriteString("M" + num(seg[0].x) + " " + num(base))
		for _, p := range seg {
			b.WriteString("L" + num(p.x) + " " + num(p.y))
		}
		b.WriteString("L" + num(seg[len(seg)-1].x) + " " + num(base) + "Z")
	}
	return b.String()
}
