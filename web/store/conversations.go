package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// ErrConversationNotFound means the conversation does not exist or belongs
// to another learner; the two are deliberately indistinguishable.
var ErrConversationNotFound = errors.New("conversation not found")

// Limits on stored conversations.
const (
	MaxMessageBytes   = 128 << 10 // a long answer is ~16 KB; anything near this is a bug
	MaxRecentTurns    = 100
	MaxListMessages   = 1000
	MaxConversations  = 100
	conversationTitle = 80 // bytes of the first question shown as a title
)

// Conversation is one chat thread of a learner, as the chat page lists it.
type Conversation struct {
	ID        string
	CreatedAt time.Time
	Title     string // the start of the first user message; "" before one
	Messages  int
}

// Message is a stored chat message as the chat page shows it.
type Message struct {
	ID             int64
	ConversationID string
	Role           string // "user" or "assistant"
	Content        string
	Status         string // see pipeline.Turn.Status
	PromptTokens   int
	OutputTokens   int
	Tier           string
	At             time.Time
}

var (
	validRoles    = map[string]bool{"user": true, "assistant": true}
	validStatuses = map[string]bool{pipeline.StatusComplete: true, pipeline.StatusCancelled: true,
		pipeline.StatusError: true, pipeline.StatusTimeout: true, pipeline.StatusBlocked: true,
		pipeline.StatusStreaming: true, pipeline.StatusInterrupted: true}
)

// CreateConversation starts a new conversation owned by learnerID and
// returns its id, which is random so it cannot be guessed.
func (s *Store) CreateConversation(ctx context.Context, learnerID string) (string, error) {
	now := time.Now().UTC()
	if err := s.EnsureLearner(ctx, learnerID, now); err != nil {
		return "", fmt.Errorf("create conversation: %w", err)
	}
	id := "c" + rand.Text()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO conversations (id, learner, created_at) VALUES (?, ?, ?)`,
		id, learnerID, formatTime(now)); err != nil {
		return "", fmt.Errorf("create conversation: %w", err)
	}
	return id, nil
}

// CheckConversation returns ErrConversationNotFound unless learnerID owns
// the conversation. Call it before running the pipeline on a conversation
// id that came from a request: SaveMessage and RecentTurns trust their ids.
func (s *Store) CheckConversation(ctx context.Context, learnerID, conversationID string) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM conversations WHERE id = ? AND learner = ?`,
		conversationID, learnerID).Scan(&n); err != nil {
		return fmt.Errorf("check conversation: %w", err)
	}
	if n == 0 || learnerID == "" {
		return fmt.Errorf("check conversation: %w", ErrConversationNotFound)
	}
	return nil
}

// ListConversations returns a learner's conversations, newest first.
func (s *Store) ListConversations(ctx context.Context, learnerID string, limit int) ([]Conversation, error) {
	if limit < 1 || limit > MaxConversations {
		return nil, fmt.Errorf("list conversations: %w: limit %d not in 1..%d", ErrInvalid, limit, MaxConversations)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.created_at,
			coalesce((SELECT substr(content, 1, ?) FROM messages WHERE conversation = c.id AND role = 'user' ORDER BY id LIMIT 1), ''),
			(SELECT count(*) FROM messages WHERE conversation = c.id)
		FROM conversations c WHERE c.learner = ? ORDER BY c.created_at DESC, c.id LIMIT ?`,
		conversationTitle, learnerID, limit)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	defer rows.Close()
	var out []Conversation
	for rows.Next() {
		var c Conversation
		var at string
		if err := rows.Scan(&c.ID, &at, &c.Title, &c.Messages); err != nil {
			return nil, fmt.Errorf("list conversations: %w", err)
		}
		c.CreatedAt = parseTime(at)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	return out, nil
}

// SaveMessage appends a message to a conversation. An empty Status means
// "complete"; a zero At means now. Partial answers are saved with the status
// that says how they ended, so the next turn's history matches what the
// learner saw.
func (s *Store) SaveMessage(ctx context.Context, m pipeline.SavedMessage) error {
	m, err := checkMessage(m)
	if err != nil {
		return fmt.Errorf("save message: %w", err)
	}
	if _, err := insertMessage(ctx, s.db, m); err != nil {
		return fmt.Errorf("save message: %w", err)
	}
	return nil
}

// execer is a *sql.DB or a *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insertMessage inserts a checked message and returns its id. It inserts
// only into a conversation that exists, and says which case it was instead
// of a bare foreign-key error.
func insertMessage(ctx context.Context, db execer, m pipeline.SavedMessage) (int64, error) {
	res, err := db.ExecContext(ctx, `INSERT INTO messages
		(conversation, role, content, status, prompt_tokens, output_tokens, tier, created_at)
		SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?)`,
		m.ConversationID, m.Role, m.Content, m.Status, m.PromptTokens, m.OutputTokens, m.Tier, formatTime(m.At), m.ConversationID)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, err
	} else if n == 0 {
		return 0, ErrConversationNotFound
	}
	return res.LastInsertId()
}

// checkMessage refuses a message the table must not hold and fills in the
// defaults: an empty Status means "complete", a zero At means now.
func checkMessage(m pipeline.SavedMessage) (pipeline.SavedMessage, error) {
	if m.Status == "" {
		m.Status = pipeline.StatusComplete
	}
	switch {
	case !validRoles[m.Role]:
		return m, fmt.Errorf("%w: role %q", ErrInvalid, truncate(m.Role, 20))
	case !validStatuses[m.Status]:
		return m, fmt.Errorf("%w: status %q", ErrInvalid, truncate(m.Status, 20))
	case len(m.Content) > MaxMessageBytes:
		return m, fmt.Errorf("%w: content of %d bytes, limit %d", ErrInvalid, len(m.Content), MaxMessageBytes)
	case m.PromptTokens < 0 || m.OutputTokens < 0:
		return m, fmt.Errorf("%w: negative token count", ErrInvalid)
	}
	if m.At.IsZero() {
		m.At = time.Now()
	}
	return m, nil
}

// RecentTurns returns the last maxTurns messages of a conversation (each
// message is one turn), oldest first, partial answers included with their
// status. maxTurns is clamped to 0..MaxRecentTurns.
func (s *Store) RecentTurns(ctx context.Context, conversationID string, maxTurns int) ([]pipeline.Turn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("recent turns: %w", err)
	}
	maxTurns = min(max(maxTurns, 0), MaxRecentTurns)
	if maxTurns == 0 {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT role, content, status, created_at FROM
		(SELECT id, role, content, status, created_at FROM messages WHERE conversation = ? ORDER BY id DESC LIMIT ?)
		ORDER BY id`, conversationID, maxTurns)
	if err != nil {
		return nil, fmt.Errorf("recent turns: %w", err)
	}
	defer rows.Close()
	var out []pipeline.Turn
	for rows.Next() {
		var t pipeline.Turn
		var at string
		if err := rows.Scan(&t.Role, &t.Content, &t.Status, &at); err != nil {
			return nil, fmt.Errorf("recent turns: %w", err)
		}
		t.At = parseTime(at)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("recent turns: %w", err)
	}
	return out, nil
}

// ListMessages returns a conversation's messages, oldest first (at most the
// last MaxListMessages), if learnerID owns it; otherwise
// ErrConversationNotFound.
func (s *Store) ListMessages(ctx context.Context, learnerID, conversationID string) ([]Message, error) {
	if err := s.CheckConversation(ctx, learnerID, conversationID); err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, role, content, status, prompt_tokens, output_tokens, tier, created_at FROM
		(SELECT * FROM messages WHERE conversation = ? ORDER BY id DESC LIMIT ?) ORDER BY id`,
		conversationID, MaxListMessages)
	if err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		m := Message{ConversationID: conversationID}
		var at string
		if err := rows.Scan(&m.ID, &m.Role, &m.Content, &m.Status, &m.PromptTokens, &m.OutputTokens, &m.Tier, &at); err != nil {
			return nil, fmt.Errorf("list messages: %w", err)
		}
		m.At = parseTime(at)
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	return out, nil
}
