package charts

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// A chart is laid out for the width the page reports, within what a
// chart can use, and every kind keeps its text inside that box: on a
// phone the layout changes rather than the text shrinking.
func TestChartsLayOutForTheirWidth(t *testing.T) {
	for _, tc := range []struct {
		px   float64
		set  bool
		want float64
	}{
		{0, false, viewW},
		{300, true, 300},
		{340, true, 340},
		{1200, true, viewW},
		{120, true, minWidth},
		{math.NaN(), true, viewW},
	} {
		for _, c := range examples() {
			t.Run(fmt.Sprintf("%v/%s", tc.px, c.Kind), func(t *testing.T) {
				ctx := context.Background()
				if tc.set {
					ctx = WithWidth(ctx, tc.px)
				}
				out, root := renderCtx(t, ctx, Chart(c))
				checkRoot(t, c, out, root)
				box := strings.Fields(root.attr("viewBox"))
				if len(box) != 4 || box[2] != strconv.FormatFloat(tc.want, 'f', -1, 64) {
					t.Fatalf("viewBox %q, want width %v", root.attr("viewBox"), tc.want)
				}
				placed := 0
				root.walk(func(n node) {
					if n.XMLName.Local != "text" {
						return
					}
					x, err := strconv.ParseFloat(n.attr("x"), 64)
					if err != nil {
						return // positioned by a transform
					}
					placed++
					if x < 0 || x > tc.want+0.5 {
						t.Errorf("text %q at x=%v outside a %v-wide chart", n.Text, x, tc.want)
					}
				})
				if placed < 3 {
					t.Errorf("only %d texts placed by x: the check saw too little", placed)
				}
			})
		}
	}
}
