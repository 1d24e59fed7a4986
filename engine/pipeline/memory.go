package pipeline

import (
	"context"
	"fmt"
	"sync"
)

// MemoryConversations keeps conversations in memory: a History and a
// Messages for labs and tests that need a conversation without a database.
// Safe for concurrent use.
type MemoryConversations struct {
	mu      sync.Mutex
	convs   map[string][]SavedMessage
	answers map[AnswerID]messageRef
}

// messageRef locates a saved answer: its conversation and position.
type messageRef struct {
	conv  string
	index int
}

// NewMemoryConversations returns an empty store.
func NewMemoryConversations() *MemoryConversations {
	return &MemoryConversations{convs: make(map[string][]SavedMessage), answers: make(map[AnswerID]messageRef)}
}

// SaveMessage appends m to its conversation.
func (s *MemoryConversations) SaveMessage(ctx context.Context, m SavedMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.convs[m.ConversationID] = append(s.convs[m.ConversationID], m)
	return nil
}

// StartAnswer appends the question and the answer to the question's
// conversation and returns the answer's id.
func (s *MemoryConversations) StartAnswer(ctx context.Context, question, answer SavedMessage) (AnswerID, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	conv := question.ConversationID
	answer.ConversationID = conv
	s.convs[conv] = append(s.convs[conv], question, answer)
	id := AnswerID(len(s.answers) + 1)
	s.answers[id] = messageRef{conv: conv, index: len(s.convs[conv]) - 1}
	return id, nil
}

// UpdateAnswer rewrites the answer id in place, keeping its conversation,
// role and time.
func (s *MemoryConversations) UpdateAnswer(ctx context.Context, id AnswerID, answer SavedMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ref, ok := s.answers[id]
	if !ok {
		return fmt.Errorf("update answer %d: no such answer", id)
	}
	m := &s.convs[ref.conv][ref.index]
	m.Content, m.Status, m.Tier = answer.Content, answer.Status, answer.Tier
	m.PromptTokens, m.OutputTokens = answer.PromptTokens, answer.OutputTokens
	return nil
}

// RecentTurns returns the last maxTurns messages, oldest first.
func (s *MemoryConversations) RecentTurns(ctx context.Context, conversationID string, maxTurns int) ([]Turn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs := s.convs[conversationID]
	if maxTurns >= 0 && len(msgs) > maxTurns {
		msgs = msgs[len(msgs)-maxTurns:]
	}
	turns := make([]Turn, len(msgs))
	for i, m := range msgs {
		turns[i] = Turn{Role: m.Role, Content: m.Content, Status: m.Status, At: m.At}
	}
	return turns, nil
}

// Messages returns a copy of a conversation's saved messages.
func (s *MemoryConversations) Messages(conversationID string) []SavedMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SavedMessage(nil), s.convs[conversationID]...)
}
