package live

import (
	"fmt"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// BenchmarkTallySharing: the runner tallies every step's batch under the
// engine lock, so the cost must stay linear in the batch and allocation
// free: microseconds for a full batch, against steps of milliseconds.
func BenchmarkTallySharing(b *testing.B) {
	for _, n := range []int{1, 32, 256} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := &Engine{streams: make(map[string]*stream, n)}
			batch := make([]engine.BatchEntry, n)
			for i := range batch {
				batch[i].ID = fmt.Sprint("r", i)
				e.streams[batch[i].ID] = &stream{}
			}
			b.ReportAllocs()
			for b.Loop() {
				e.tallySharing(batch, 8*time.Millisecond)
			}
		})
	}
}
