package pipeline

import (
	"fmt"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/textmodel"
)

func history(n int) []Turn {
	turns := make([]Turn, n)
	for i := range turns {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		turns[i] = Turn{Role: role, Content: fmt.Sprintf("Turn %d: my parcel to Porto was meant to arrive on Tuesday and the tracking page still says it is in the depot.", i)}
	}
	return turns
}

func TestHistoryTruncationRespectsTheBudget(t *testing.T) {
	tm := textmodel.Default()
	lk := Lookups{History: history(12), Chunks: newMemStore().chunks, Order: newMemStore().order}
	full := assemblePrompt(tm, PromptConfig{}, lk, "Where is it now?")
	perTurn := full.Parts.History / 12 // every turn here has about the same length
	cases := []struct {
		budget   int
		wantKept int
	}{
		{0, 12}, // no cap
		{full.Parts.History, 12},
		{full.Parts.History - 1, 11},
		{3*perTurn + perTurn/2, 3},
		{perTurn / 2, 0},
	}
	for _, tc := range cases {
		p := assemblePrompt(tm, PromptConfig{HistoryBudget: tc.budget}, lk, "Where is it now?")
		if tc.budget > 0 && p.Parts.History > tc.budget {
			t.Errorf("budget %d: history has %d tokens", tc.budget, p.Parts.History)
		}
		if p.HistoryKept != tc.wantKept || p.HistoryKept+p.HistoryDropped != 12 {
			t.Errorf("budget %d: kept %d dropped %d, want kept %d", tc.budget, p.HistoryKept, p.HistoryDropped, tc.wantKept)
		}
		// The newest turns are the ones kept, in order, just before the question.
		n := len(p.Messages)
		for i := 0; i < p.HistoryKept; i++ {
			want := lk.History[12-p.HistoryKept+i].Content
			if got := p.Messages[n-1-p.HistoryKept+i].Content; got != want {
				t.Errorf("budget %d: message %d is %q, want %q", tc.budget, i, got, want)
			}
		}
		// The parts add up to the real prompt length.
		if got := len(tm.PromptTokens(p.Messages)); got != p.Tokens() {
			t.Errorf("budget %d: parts sum to %d, prompt has %d tokens", tc.budget, p.Tokens(), got)
		}
	}
}

func TestPromptPartsCountEveryPart(t *testing.T) {
	tm := textmodel.Default()
	st := newMemStore()
	p := assemblePrompt(tm, PromptConfig{System: "Be brief."}, Lookups{Chunks: st.chunks, Order: st.order}, "How do returns work?")
	if p.Parts.System == 0 || p.Parts.Chunks == 0 || p.Parts.Order == 0 || p.Parts.Question == 0 || p.Parts.History != 0 {
		t.Errorf("parts %+v", p.Parts)
	}
	more := assemblePrompt(tm, PromptConfig{System: "Be brief."}, Lookups{Chunks: append(st.chunks, st.chunks...), Order: st.order}, "How do returns work?")
	if more.Parts.Chunks <= p.Parts.Chunks || more.Parts.System != p.Parts.System {
		t.Errorf("doubling the chunks: %d -> %d tokens", p.Parts.Chunks, more.Parts.Chunks)
	}
	// Empty assistant turns (cancelled before a word) are skipped.
	q := assemblePrompt(tm, PromptConfig{}, Lookups{History: []Turn{{Role: "user", Content: "hi"}, {Role: "assistant", Content: "", Status: StatusCancelled}}}, "x")
	if q.HistoryKept != 1 {
		t.Errorf("kept %d turns, want the empty answer skipped", q.HistoryKept)
	}
}

func TestFormatOrder(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 10, 0, 0, 0, time.UTC) }
	cases := []struct {
		o    Order
		want string
	}{
		{Order{ID: "NW-1", Status: "in transit", Items: "Rain Jacket", Total: "$189.00", Placed: day(18), Shipped: day(19), Carrier: "UPS", Tracking: "1Z9"},
			"Your order NW-1 (Rain Jacket, $189.00) was placed on 18 November 2026 and is in transit. The order shipped on 19 November 2026 with UPS. Track the parcel with tracking number 1Z9."},
		{Order{ID: "NW-2", Status: "processing", Items: "Cap", Placed: day(20)},
			"Your order NW-2 (Cap) was placed on 20 November 2026 and is processing. The order has not shipped yet."},
		{Order{ID: "NW-3", Status: "cancelled"}, "Your order NW-3 is cancelled."},
	}
	for _, tc := range cases {
		if got := formatOrder(&tc.o); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
