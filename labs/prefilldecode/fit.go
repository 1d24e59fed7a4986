package prefilldecode

// line is y = intercept + slope·x, fitted by least squares.
type line struct {
	intercept, slope float64
	ok               bool // false when fewer than two distinct x values
}

// at evaluates the line.
func (l line) at(x float64) float64 { return l.intercept + l.slope*x }

// fitSamples fits ms against tokens by ordinary least squares.
func fitSamples(ss []sample) line {
	n := float64(len(ss))
	if n < 2 {
		return line{}
	}
	var sx, sy float64
	for _, s := range ss {
		sx += float64(s.tokens)
		sy += s.ms
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for _, s := range ss {
		dx := float64(s.tokens) - mx
		sxx += dx * dx
		sxy += dx * (s.ms - my)
	}
	if sxx == 0 {
		return line{}
	}
	b := sxy / sxx
	return line{intercept: my - b*mx, slope: b, ok: true}
}
