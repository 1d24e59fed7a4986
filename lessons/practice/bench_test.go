package practice

import "testing"

// BenchmarkDrawEveryTemplate is the cost of drawing one problem of each
// template: a drill page draws once per view, so this bounds the page's
// own work.
func BenchmarkDrawEveryTemplate(b *testing.B) {
	for _, tm := range Templates() {
		b.Run(tm.ID, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := tm.Draw(uint64(i % 16)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
