package labtest

import "testing"

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
