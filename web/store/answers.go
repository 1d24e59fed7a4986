package store

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// StartAnswer saves a question and its answer's first state (usually empty
// and "streaming") in one transaction, before the model is called, and
// returns the answer's id for UpdateAnswer. Both must belong to the same
// conversation, which must exist.
func (s *Store) StartAnswer(ctx context.Context, question, answer pipeline.SavedMessage) (pipeline.AnswerID, error) {
	question, err := checkMessage(question)
	if err != nil {
		return 0, fmt.Errorf("start answer: question: %w", err)
	}
	if answer.ConversationID == "" {
		answer.ConversationID = question.ConversationID
	}
	answer, err = checkMessage(answer)
	switch {
	case err != nil:
		return 0, fmt.Errorf("start answer: %w", err)
	case question.Role != "user" || answer.Role != "assistant":
		return 0, fmt.Errorf("start answer: %w: roles %q then %q, want user then assistant",
			ErrInvalid, truncate(question.Role, 20), truncate(answer.Role, 20))
	case answer.ConversationID != question.ConversationID:
		return 0, fmt.Errorf("start answer: %w: question and answer in different conversations", ErrInvalid)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("start answer: %w", err)
	}
	defer tx.Rollback()
	if _, err := insertMessage(ctx, tx, question); err != nil {
		return 0, fmt.Errorf("start answer: question: %w", err)
	}
	id, err := insertMessage(ctx, tx, answer)
	if err != nil {
		return 0, fmt.Errorf("start answer: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("start answer: commit: %w", err)
	}
	return pipeline.AnswerID(id), nil
}

// UpdateAnswer rewrites an answer in place as it grows and once more when
// it ends: content, status, token counts and tier. Its conversation, role
// and time stay. One UPDATE is one SQLite transaction, so a crash leaves
// either the previous or the new text, never a mix.
func (s *Store) UpdateAnswer(ctx context.Context, id pipeline.AnswerID, answer pipeline.SavedMessage) error {
	answer.Role = "assistant"
	answer, err := checkMessage(answer)
	if err != nil {
		return fmt.Errorf("update answer: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE messages SET content = ?, status = ?, prompt_tokens = ?,
		output_tokens = ?, tier = ? WHERE id = ? AND role = 'assistant'`,
		answer.Content, answer.Status, answer.PromptTokens, answer.OutputTokens, answer.Tier, int64(id))
	if err != nil {
		return fmt.Errorf("update answer: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("update answer: %w", err)
	} else if n == 0 {
		// The conversation was deleted while the answer streamed.
		return fmt.Errorf("update answer %d: %w", id, ErrConversationNotFound)
	}
	return nil
}

// markInterrupted closes every answer a previous run of the server left
// "streaming" (it stopped mid-answer: a crash, kill -9, power loss) as
// "interrupted", so history shows those partial answers for what they are.
// Open calls it: no answer can be streaming before this process serves.
func (s *Store) markInterrupted(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE messages SET status = ? WHERE status = ?`,
		pipeline.StatusInterrupted, pipeline.StatusStreaming)
	if err != nil {
		return 0, fmt.Errorf("mark interrupted answers: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("mark interrupted answers: %w", err)
	}
	return n, nil
}

// InterruptedOnOpen is how many answers Open found cut off by the previous
// run's stop and marked interrupted.
func (s *Store) InterruptedOnOpen() int64 { return s.interrupted }
