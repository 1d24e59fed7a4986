package prefilldecode

import (
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/labs/labtest"
)

// The first request's TTFT and TPOT carry their roofline arithmetic, and
// it lands on what the request measured.
func TestWhyMatchesTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, _ := newTestLab(t)
		frames := runLab(t, l, labtest.Values(nil))
		last := frames[len(frames)-1]
		labtest.CheckWhy(t, labtest.StatOf(t, last, statTTFT), "compute-bound")
		labtest.CheckWhy(t, labtest.StatOf(t, last, statTPOT), "memory-bound")
	})
}

// The decode time and both fitted slopes carry their roofline arithmetic,
// and it lands on what the run measured: the decode time within 3% (one
// step at the answer's middle context stands for all of them), the decode
// slope within 3%, and the prefill slope within 10% (the fit also spans
// short prompts, whose step is set by reading the weights, not compute).
// The second customer's TTFT is one prefill step over the tokens the
// cache did not hold, within 5%. The figures that are not times carry
// their formulas too: the prompt is its parts and the cached tokens whole
// shared blocks, exactly; the ridge point is peak ÷ bandwidth; the two
// intensities, worked out from the request's shape, land within 2% of
// what the recorded steps did.
func TestWhyOfDecodeAndSlopes(t *testing.T) {
	for _, p := range labtest.Inert(t, define).Presets() {
		t.Run(p.Name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				frames := runLab(t, l, labtest.Values(p.Values))
				last := frames[len(frames)-1]
				for key, tol := range map[string]float64{statDecode: 0.03, statPerOutputTok: 0.03, statPer1kPrompt: 0.10, statSecondTTFT: 0.05,
					statPrompt: 0, statCached: 0, statRidge: 0.002, statPrefillI: 0.02, statDecodeI: 0.02} {
					labtest.CheckFormula(t, labtest.StatOf(t, last, key), tol)
				}
			})
		})
	}
}
