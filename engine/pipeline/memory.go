package pipeline

import (
	"context"
	"sync"
)

// MemoryConversations keeps conversations in memory: a History and a
// Messages for labs and tests that need a conversation without a database.
// Safe for concurrent use.
type MemoryConversations struct {
	mu    sync.Mutex
	convs map[string][]SavedMessage
}

// NewMemoryConversations returns an empty store.
func NewMemoryConversations() *MemoryConversations {
	return &MemoryConversations{convs: make(map[string][]SavedMessage)}
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
