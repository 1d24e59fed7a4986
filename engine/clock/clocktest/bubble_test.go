package clocktest

import (
	"testing"
	"testing/synctest"
)

// A goroutine started in the bubble is counted while it runs and not once
// it has returned.
func TestBubbleGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := BubbleGoroutines()
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { <-stop; close(done) }()
		synctest.Wait()
		if got := BubbleGoroutines(); got != before+1 {
			t.Errorf("%d goroutines with one more running, %d before", got, before)
		}
		close(stop)
		<-done
		synctest.Wait()
		if got := BubbleGoroutines(); got != before {
			t.Errorf("%d goroutines after it returned, %d before", got, before)
		}
	})
}
