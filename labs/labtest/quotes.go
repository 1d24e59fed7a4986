package labtest

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/lessons"
)

// Quote is a lesson's sentence that states a figure a lab measures: the
// text the lesson must keep, what the run measured and the band it must
// land in.
type Quote struct {
	Text        string
	Got, Lo, Hi float64
}

// CheckQuotes fails t for every quote the lesson slug no longer says and
// for every figure outside its band, so a lesson's figures are held by the
// runs that make them.
func CheckQuotes(t testing.TB, slug, unit string, qs []Quote) {
	t.Helper()
	l, ok := lessons.Get(slug)
	if !ok {
		t.Fatalf("no lesson %q", slug)
	}
	for _, q := range qs {
		if !strings.Contains(l.HTML, q.Text) {
			t.Errorf("%s no longer says %q", slug, q.Text)
		}
		CheckRanges(t, unit, []Range{{What: q.Text, Got: q.Got, Lo: q.Lo, Hi: q.Hi}})
	}
}
