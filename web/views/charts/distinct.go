package charts

import (
	"github.com/lucasb-eyer/go-colorful"
)

// minDistance is the least CIEDE2000 difference two series of one chart
// may have, for every reader in visions. Around 10 two lines read as
// different colours at a glance; below 5 they pass for one.
const minDistance = 10

// visions are the ways a reader may see a chart: normal colour vision and
// the three dichromacies (red-blind, green-blind, blue-blind), simulated
// with the matrices of Machado, Oliveira and Fernandes (2009) at full
// severity, in linear RGB. One in twelve men sees red and green much alike,
// so two series told apart only by that difference are one series to them.
var visions = [...][3][3]float64{
	{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
	{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
}

// seenAs is c as a reader with vision m sees it.
func seenAs(c colorful.Color, m [3][3]float64) colorful.Color {
	r, g, b := c.LinearRgb()
	mix := func(row [3]float64) float64 { return min(1, max(0, row[0]*r+row[1]*g+row[2]*b)) }
	return colorful.LinearRgb(mix(m[0]), mix(m[1]), mix(m[2]))
}

// distance is how far apart two #rrggbb colours read, as the smallest of
// their CIEDE2000 difference under each colour-blind vision and half of it
// under normal vision: a pair must differ by 2·minDistance to most
// readers (clearly different hues, not two reds) and by minDistance to
// every reader. 0 when either does not parse.
func distance(a, b string) float64 {
	ca, errA := colorful.Hex(a)
	cb, errB := colorful.Hex(b)
	if errA != nil || errB != nil {
		return 0
	}
	// go-colorful's L runs 0..1; CIEDE2000 figures are quoted on 0..100.
	d := 50 * ca.DistanceCIEDE2000(cb)
	for _, m := range visions[1:] {
		d = min(d, 100*seenAs(ca, m).DistanceCIEDE2000(seenAs(cb, m)))
	}
	return d
}
