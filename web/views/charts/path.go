package charts

import (
	"math"
	"strconv"

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
	// One backing array for every segment: segments are sub-slices of it.
	all := make([]pt, 0, len(ps))
	start := 0
	cur := all[:0]
	for _, p := range ps {
		if !finite(p.X) || !finite(p.Y) || (xs.log && p.X <= 0) || (ys.log && p.Y <= 0) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			start = len(all)
			cur = all[start:start]
			continue
		}
		q := pt{x: round1(xs.pos(p.X)), y: round1(ys.pos(p.Y)), src: p}
		if n := len(cur); n > 0 && cur[n-1].x == q.x && cur[n-1].y == q.y {
			continue
		}
		all = append(all, q)
		cur = all[start:len(all):len(all)]
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// thin keeps, of the points falling in each half-unit column of the
// viewBox, only the first, lowest, highest and last (M4 decimation): the
// drawn line looks the same while a series of thousands of samples stays a
// few hundred points on the wire.
func thin(seg []pt) []pt {
	if len(seg) <= 4 {
		return seg
	}
	out := make([]pt, 0, len(seg))
	for i := 0; i < len(seg); {
		col := math.Floor(seg[i].x * 2)
		j := i
		lo, hi := i, i
		for j < len(seg) && math.Floor(seg[j].x*2) == col {
			if seg[j].y < seg[lo].y {
				lo = j
			}
			if seg[j].y > seg[hi].y {
				hi = j
			}
			j++
		}
		keep := []int{i, lo, hi, j - 1}
		// Emit in the original order, each index once.
		for k := 1; k < len(keep); k++ {
			for m := k; m > 0 && keep[m] < keep[m-1]; m-- {
				keep[m], keep[m-1] = keep[m-1], keep[m]
			}
		}
		for k, idx := range keep {
			if k == 0 || idx != keep[k-1] {
				out = append(out, seg[idx])
			}
		}
		i = j
	}
	return out
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// linePath is SVG path data joining the points of each segment.
func linePath(segs [][]pt) string {
	var b []byte
	for _, seg := range segs {
		if len(seg) < 2 {
			continue
		}
		for i, p := range seg {
			cmd := byte('L')
			if i == 0 {
				cmd = 'M'
			}
			b = appendXY(b, cmd, p.x, p.y)
		}
	}
	return string(b)
}

// areaPath is SVG path data filling each segment down to the baseline y.
func areaPath(segs [][]pt, base float64) string {
	var b []byte
	for _, seg := range segs {
		if len(seg) < 2 {
			continue
		}
		b = appendXY(b, 'M', seg[0].x, base)
		for _, p := range seg {
			b = appendXY(b, 'L', p.x, p.y)
		}
		b = appendXY(b, 'L', seg[len(seg)-1].x, base)
		b = append(b, 'Z')
	}
	return string(b)
}

// appendXY appends one path command with a coordinate pair.
func appendXY(b []byte, cmd byte, x, y float64) []byte {
	b = append(b, cmd)
	b = appendNum(b, x)
	b = append(b, ' ')
	return appendNum(b, y)
}

// appendNum appends v as num would format it, without allocating.
func appendNum(b []byte, v float64) []byte {
	n := len(b)
	b = strconv.AppendFloat(b, v, 'f', 1, 64)
	if b[len(b)-1] == '0' && b[len(b)-2] == '.' {
		b = b[:len(b)-2]
	}
	if string(b[n:]) == "-0" {
		b = append(b[:n], '0')
	}
	return b
}
