package labtest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// FakeStore is a small in-memory Retriever and Orders for the labs' tests,
// which run without a database: a handful of support passages
// ranked by shared words, and one order.
type FakeStore struct {
	Chunks []pipeline.Chunk
	Order  *pipeline.Order
}

// NewFakeStore returns a store with a few passages and one order.
func NewFakeStore() *FakeStore {
	texts := []struct{ article, text string }{
		{"Tracking your order", "Every shipped order has a tracking link in the shipping confirmation e-mail. Tracking updates within a few hours of each carrier scan."},
		{"Late deliveries", "If your order is more than two business days late, contact us and we will open a trace with the carrier. Most late parcels arrive within a week."},
		{"Refund times", "Refunds are issued within two business days of the warehouse scanning your return. Your bank may take three to five more days to show the refund."},
		{"Card payments", "A declined card is usually a bank security check. Try again after confirming the payment in your bank's app, or use another card or PayPal."},
		{"Warranty", "Zippers, seams and buckles are covered by our two-year warranty. Send a photo of the fault and your order number to start a claim."},
		{"Shipping abroad", "We ship to Germany and the rest of the EU with duties paid, so there are no customs charges at delivery. EU delivery takes four to six business days."},
		{"Passwords", "To reset a forgotten password, choose Forgot password on the sign-in page and follow the link we e-mail you. The link works for one hour."},
		{"Delivery addresses", "An address can be changed until the order is packed. After that, redirect the parcel from the carrier's tracking page."},
		{"Returns", "Return unworn items with tags within 30 days of delivery for a full refund. Start the return from your account and print the prepaid label."},
		{"Order status", "Processing means we are packing your order. In transit means the carrier has it. Delivered means the carrier marked it as left at your address."},
		{"Express shipping", "Express orders placed before 2 pm ship the same day and arrive the next business day. Overnight shipping costs 19 dollars."},
		{"Damaged items", "If an item arrives damaged, send us a photo within 14 days and we will send a replacement or a refund at no cost."},
		{"Missing parcels", "If tracking says delivered but the parcel is not there, check with neighbours and the building's mail room, then tell us within 48 hours."},
		{"Promo codes", "Promo codes work on full-price items only and cannot be combined with each other. Newsletter codes expire after fourteen days."},
		{"Gift cards", "Gift cards never expire and can be combined with one promo code. A gift card balance shows in your account."},
		{"Store pickup", "Choose pickup at checkout to collect your order from a store, usually within two days. Bring the pickup e-mail and photo ID."},
		{"Support hours", "Our support team answers chat and e-mail from 8 am to 8 pm every day, and by phone on weekdays."},
		{"Down jacket care", "Wash down jackets on a gentle cycle with down wash, then tumble dry on low heat with clean tennis balls to restore the loft."},
		{"Double charges", "A second charge is usually a card authorisation that drops off within three business days. If it stays, send us both transaction ids."},
		{"Account access", "If you lost the phone you use for sign-in codes, use one of your backup codes or ask support to verify you by e-mail."},
		{"Payment methods", "We accept major cards, PayPal, Apple Pay and gift cards. Buy now, pay later is offered on orders over 50 dollars."},
		{"Subscriptions", "Cancel a Sock Club subscription any time from your account before the next billing date; the current box still ships."},
	}
	s := &FakeStore{Order: &pipeline.Order{ID: "NW-10452", Customer: pipelinelab.Customer, Status: "in transit", Items: "rain jacket",
		Total: "$129.00", Placed: time.Date(2026, 11, 14, 10, 0, 0, 0, time.UTC), Shipped: time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC),
		Carrier: "UPS", Tracking: "1Z999AA10123456784"}}
	for i, t := range texts {
		s.Chunks = append(s.Chunks, pipeline.Chunk{ID: int64(i + 1), Article: t.article, Text: t.text})
	}
	return s
}

// Retrieve ranks passages by the number of question words they share,
// then by id, and returns the top k (every passage matches a little, so k
// up to len(Chunks) always fills).
func (s *FakeStore) Retrieve(ctx context.Context, query string, k int) ([]pipeline.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	words := strings.Fields(strings.ToLower(query))
	out := make([]pipeline.Chunk, len(s.Chunks))
	for i, c := range s.Chunks {
		text := strings.ToLower(c.Article + " " + c.Text)
		score := 0.1 / float64(i+1)
		for _, w := range words {
			w = strings.Trim(w, "?,.!")
			if len(w) > 3 && strings.Contains(text, w) {
				score++
			}
		}
		c.Score = score
		out[i] = c
	}
	for i := 1; i < len(out); i++ { // insertion sort: stable and tiny
		for j := i; j > 0 && out[j].Score > out[j-1].Score; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out[:min(max(k, 0), len(out))], nil
}

// LookupOrder returns the one order for the demo customer.
func (s *FakeStore) LookupOrder(ctx context.Context, customer, question string) (*pipeline.Order, error) {
	if customer != pipelinelab.Customer || s.Order == nil {
		return nil, nil
	}
	o := *s.Order
	return &o, nil
}

// OnFakeDesk builds a pipeline lab with newLab (its New, or a closure over
// a test-only constructor) on the pool it is given, with a fresh fake
// support desk answering both its retrieval and its order lookups; a lab
// that never looks an order up ignores the latter. Pass it to RunInBubble
// or CancelMidRun, or see RunsOnFakeDesk.
func OnFakeDesk[L labs.Lab](t testing.TB, newLab func(pipelinelab.Config) (L, error)) func(*labs.Engines) labs.Lab {
	return func(pool *labs.Engines) labs.Lab {
		desk := NewFakeStore()
		return Must[L](t)(newLab(pipelinelab.Config{Engines: pool, Retriever: desk, Orders: desk}))
	}
}

// RunsOnFakeDesk is how a pipeline lab's tests run it: the returned func
// runs the lab newLab builds once on the fake desk (see OnFakeDesk) inside
// a synctest bubble (see RunInBubble), where the pipeline's waits and the
// live engine's pacing are on virtual time, so every wall-clock figure is
// exact and the run takes no real time. It returns every frame.
func RunsOnFakeDesk[L labs.Lab](newLab func(pipelinelab.Config) (L, error)) func(*testing.T, labs.Values) []labs.Frame {
	return func(t *testing.T, vals labs.Values) []labs.Frame {
		t.Helper()
		return RunInBubble(t, OnFakeDesk(t, newLab), vals, nil)
	}
}
