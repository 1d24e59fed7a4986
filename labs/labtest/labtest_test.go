package labtest

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
)

func TestRises(t *testing.T) {
	for _, tc := range []struct {
		counts []int
		want   int
	}{
		{nil, 0},
		{[]int{7}, 0},
		{[]int{0, 1, 2, 3, 5, 7}, 5},
		{[]int{7, 0, 1, 2, 3, 4, 7}, 5}, // the previous run's rows, cleared, then refilled
		{[]int{3, 3, 2}, 0},
	} {
		if got := Rises(tc.counts); got != tc.want {
			t.Errorf("Rises(%v) = %d, want %d", tc.counts, got, tc.want)
		}
	}
}

func TestValuesIsAFreshCopy(t *testing.T) {
	for _, changes := range []labs.Values{nil, {}, {"tokens": 50.0, "streaming": true}} {
		v := Values(changes)
		if v == nil || len(v) != len(changes) {
			t.Errorf("Values(%v) = %v, want a non-nil copy", changes, v)
		}
		v["added"] = 1.0
		if _, ok := changes["added"]; ok {
			t.Errorf("adding to Values(%v) changed the table it came from", changes)
		}
	}
}
