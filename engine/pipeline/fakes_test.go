package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// memStore is an in-memory History, Messages, Retriever and Orders.
type memStore struct {
	mu     sync.Mutex
	turns  map[string][]Turn
	saved  []SavedMessage
	chunks []Chunk
	order  *Order
	fail   map[string]error // by method name
	writes []savedWrite     // every StartAnswer and UpdateAnswer, in order
}

// savedWrite is one save of an answer, for tests of the save cadence.
type savedWrite struct {
	at  time.Time
	id  AnswerID
	msg SavedMessage
}

func newMemStore() *memStore {
	return &memStore{turns: map[string][]Turn{}, fail: map[string]error{}, chunks: []Chunk{
		{ID: 1, Article: "Returns", Text: "You can return any item within 30 days of delivery. Refunds reach your card within 5 business days."},
		{ID: 2, Article: "Shipping", Text: "Standard shipping takes 3 to 5 business days. Express shipping arrives the next business day."},
		{ID: 3, Article: "Tracking", Text: "Every shipped order has a tracking number in the confirmation e-mail."},
	}, order: &Order{ID: "A1001", Customer: "ana", Status: "shipped", Items: "kettle", Carrier: "DHL", Tracking: "JD0001"}}
}

func (m *memStore) RecentTurns(ctx context.Context, conv string, n int) ([]Turn, error) {
	if err := m.fail["history"]; err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.turns[conv]
	if len(t) > n {
		t = t[len(t)-n:]
	}
	return append([]Turn(nil), t...), nil
}

// StartAnswer appends the question and the answer, as the SQLite store
// does in one transaction.
func (m *memStore) StartAnswer(ctx context.Context, q, a SavedMessage) (AnswerID, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := m.fail["save"]; err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range []SavedMessage{q, a} {
		m.saved = append(m.saved, s)
		m.turns[s.ConversationID] = append(m.turns[s.ConversationID], Turn{Role: s.Role, Content: s.Content, Status: s.Status, At: s.At})
	}
	m.writes = append(m.writes, savedWrite{at: time.Now(), id: AnswerID(len(m.saved) - 1), msg: a})
	return AnswerID(len(m.saved) - 1), nil
}

// UpdateAnswer rewrites an answer in place and logs the write with the
// (bubble's virtual) time it happened.
func (m *memStore) UpdateAnswer(ctx context.Context, id AnswerID, a SavedMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := m.fail["save"]; err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	i := int(id)
	if i < 0 || i >= len(m.saved) {
		return fmt.Errorf("no answer %d", id)
	}
	a.ConversationID, a.Role, a.At = m.saved[i].ConversationID, m.saved[i].Role, m.saved[i].At
	m.saved[i] = a
	// Each conversation's turns mirror saved; find the answer's turn by
	// counting the conversation's messages before it.
	n := 0
	for _, s := range m.saved[:i] {
		if s.ConversationID == a.ConversationID {
			n++
		}
	}
	m.turns[a.ConversationID][n] = Turn{Role: a.Role, Content: a.Content, Status: a.Status, At: a.At}
	m.writes = append(m.writes, savedWrite{at: time.Now(), id: id, msg: a})
	return nil
}

func (m *memStore) Retrieve(ctx context.Context, q string, k int) ([]Chunk, error) {
	if err := m.fail["retrieve"]; err != nil {
		return nil, err
	}
	return m.chunks[:min(k, len(m.chunks))], nil
}

func (m *memStore) LookupOrder(ctx context.Context, customer, q string) (*Order, error) {
	if err := m.fail["order"]; err != nil {
		return nil, err
	}
	return m.order, nil
}

func (m *memStore) lastSaved(t *testing.T) SavedMessage {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.saved) == 0 {
		t.Fatal("nothing saved")
	}
	return m.saved[len(m.saved)-1]
}

// scriptProvider streams a fixed answer with a fixed time to first token
// and gap between tokens, on the pipeline's clock, and records how far it
// got so tests can see generation stop.
type scriptProvider struct {
	clk      clock.Clock
	ttft     time.Duration
	gap      time.Duration
	words    int
	failWith error // returned from Stream

	mu       sync.Mutex
	calls    int
	produced int
	stopped  bool // ctx ended before the answer was complete
}

func (p *scriptProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	p.mu.Lock()
	p.calls++
	p.mu.Unlock()
	if p.failWith != nil {
		return nil, p.failWith
	}
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan streamItem)
	go func() {
		defer close(out)
		stop := func() {
			p.mu.Lock()
			p.stopped = true
			p.mu.Unlock()
		}
		if clock.Sleep(ctx, p.clk, p.ttft) != nil {
			stop()
			return
		}
		for i := range p.words {
			if i > 0 && clock.Sleep(ctx, p.clk, p.gap) != nil {
				stop()
				return
			}
			select {
			case out <- streamItem{ev: StreamEvent{Text: fmt.Sprintf(" w%d", i), Tokens: 1, At: p.clk.Now()}}:
				p.mu.Lock()
				p.produced++
				p.mu.Unlock()
			case <-ctx.Done():
				stop()
				return
			}
		}
		select {
		case out <- streamItem{ev: StreamEvent{Done: true, FinishReason: "stop",
			Usage: Usage{PromptTokens: 100, CompletionTokens: p.words}}}:
		case <-ctx.Done():
		}
	}()
	return &chanStream{ctx: ctx, cancel: cancel, ch: out}, nil
}

func (p *scriptProvider) state() (calls, produced int, stopped bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls, p.produced, p.stopped
}

// bareConfig has no simulated latency and no timeouts; tests switch on
// what they examine.
func bareConfig() Config {
	return Config{
		Context: ContextConfig{HistoryTurns: 10, TopK: 3, Order: true},
		Gateway: GatewayConfig{Tier: "medium"},
	}
}

func tiers(medium, small Provider) []Tier {
	ts := []Tier{{Name: "medium", Provider: medium, Model: "m", PriceIn: 0.2, PriceOut: 0.6}}
	if small != nil {
		ts = append(ts, Tier{Name: "small", Provider: small, Model: "s", PriceIn: 0.05, PriceOut: 0.1})
	}
	return ts
}

func span(t *testing.T, res *Result, stage string, n int) Span {
	t.Helper()
	for _, s := range res.Spans {
		if s.Stage == stage {
			if n == 0 {
				return s
			}
			n--
		}
	}
	t.Fatalf("no span %q in %+v", stage, res.Spans)
	return Span{}
}

func wordsText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " w%d", i)
	}
	return b.String()
}

var errBoom = errors.New("boom")

func mustNew(t *testing.T, cfg Config, deps Deps) *Pipeline {
	t.Helper()
	p, err := New(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
