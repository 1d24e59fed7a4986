package charts

import "github.com/latencylab/latencylab/labs"

// withKind returns c drawn as kind, so the per-kind components can be used
// directly whatever c.Kind says.
func withKind(c labs.Chart, k labs.ChartKind) labs.Chart {
	c.Kind = k
	return c
}

// unsupported is the frame drawn for a kind this package does not know.
func unsupported(c labs.Chart, w float64) frame {
	f := newFrame(c, w, viewH, nil, newColours(nil))
	f.fitY(numIn{lo: 0, hi: 1, unit: c.YUnit, label: c.YLabel})
	f.fitX(numIn{lo: 0, hi: 1, unit: c.XUnit, label: c.XLabel})
	f.Note = "unsupported chart kind: " + string(c.Kind)
	return f
}
