// Package pipeline is the serving stack in front of a model: input
// guardrails, context building (history, retrieval, order lookup), prompt
// assembly, the gateway (tiers, cache, timeouts, fallback, a shared
// deadline), streaming delivery and saving the answer. Every stage is timed on
// one trace so labs can draw where the time goes.
//
// The pipeline touches no database or network itself: the stores and the
// model sit behind the small interfaces in this file, implemented elsewhere
// (SQLite in web/store, the bundled engine or an upstream server as a
// Provider).
package pipeline

import (
	"context"
	"time"
)

// Chunk is one passage of the support knowledge base.
type Chunk struct {
	ID      int64
	Article string // title of the article the chunk belongs to
	Text    string
	Score   float64 // retrieval score; higher is better
}

// Retriever finds the k knowledge-base chunks that best match a query.
type Retriever interface {
	Retrieve(ctx context.Context, query string, k int) ([]Chunk, error)
}

// Turn is one message of a stored conversation.
type Turn struct {
	Role    string // "user" or "assistant"
	Content string
	// Status says how an assistant answer ended: "complete", "cancelled",
	// "error", "timeout", "blocked", "interrupted" (the server stopped), or
	// "streaming" while it is still growing. Partial answers are kept so
	// the next turn's history matches what the user saw.
	Status string
	At     time.Time
}

// History loads the most recent turns of a conversation, oldest first.
type History interface {
	RecentTurns(ctx context.Context, conversationID string, maxTurns int) ([]Turn, error)
}

// Order is a customer's order as the order service returns it.
type Order struct {
	ID       string
	Customer string
	Status   string // e.g. "shipped", "processing", "delivered"
	Items    string
	Total    string
	Placed   time.Time
	Shipped  time.Time // zero when not shipped
	Carrier  string
	Tracking string
}

// Orders looks up the order a question is about (by an order number in the
// question, else the customer's latest). nil, nil means no order found.
type Orders interface {
	LookupOrder(ctx context.Context, customer, question string) (*Order, error)
}

// SavedMessage is an assistant or user message with how it ended.
type SavedMessage struct {
	ConversationID string
	Role           string
	Content        string
	Status         string // see Turn.Status
	PromptTokens   int
	OutputTokens   int
	Tier           string
	At             time.Time
}

// AnswerID names a saved answer so it can be rewritten as it grows.
type AnswerID int64

// Messages saves conversation messages. A turn is saved in steps so a crash
// loses at most the last moments of an answer: StartAnswer stores the
// question with the answer's first state before the model is called, then
// UpdateAnswer rewrites that answer in place as it grows and once more with
// how it ended. Each call is atomic.
type Messages interface {
	// StartAnswer saves the question and the answer (usually empty, with
	// StatusStreaming) together and returns the answer's id.
	StartAnswer(ctx context.Context, question, answer SavedMessage) (AnswerID, error)
	// UpdateAnswer replaces the content, status, token counts and tier of
	// the answer id (its conversation, role and time stay).
	UpdateAnswer(ctx context.Context, id AnswerID, answer SavedMessage) error
}
