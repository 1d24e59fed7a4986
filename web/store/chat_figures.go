package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// maxFiguresBytes bounds a stored breakdown; a real one is under 2 KB.
const maxFiguresBytes = 16 << 10

// SaveChatFigures attaches data (the chat page's JSON breakdown of an
// answer) to the newest assistant message of a conversation, which the
// pipeline has just saved, and returns that message's id. It returns
// ErrConversationNotFound when the conversation has no assistant message.
// The chat page runs one answer per conversation at a time, so "newest" is
// the answer it just streamed.
func (s *Store) SaveChatFigures(ctx context.Context, conversationID string, data []byte) (int64, error) {
	if len(data) == 0 || len(data) > maxFiguresBytes {
		return 0, fmt.Errorf("save chat figures: %w: %d bytes", ErrInvalid, len(data))
	}
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT id FROM messages WHERE conversation = ? AND role = 'assistant'
		ORDER BY id DESC LIMIT 1`, conversationID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("save chat figures: %w", ErrConversationNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("save chat figures: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO chat_figures (message_id, data) VALUES (?, ?)
		ON CONFLICT (message_id) DO UPDATE SET data = excluded.data`, id, string(data)); err != nil {
		return 0, fmt.Errorf("save chat figures: %w", err)
	}
	return id, nil
}

// ChatFigures returns the stored breakdowns of a conversation's messages by
// message id, if learnerID owns the conversation; otherwise
// ErrConversationNotFound.
func (s *Store) ChatFigures(ctx context.Context, learnerID, conversationID string) (map[int64][]byte, error) {
	if err := s.CheckConversation(ctx, learnerID, conversationID); err != nil {
		return nil, fmt.Errorf("chat figures: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT f.message_id, f.data FROM chat_figures f
		JOIN messages m ON m.id = f.message_id WHERE m.conversation = ?`, conversationID)
	if err != nil {
		return nil, fmt.Errorf("chat figures: %w", err)
	}
	defer rows.Close()
	out := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var data string
		if err := rows.Scan(&id, &data); err != nil {
			return nil, fmt.Errorf("chat figures: %w", err)
		}
		out[id] = []byte(data)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("chat figures: %w", err)
	}
	return out, nil
}
