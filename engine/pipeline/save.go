package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// turnSaver keeps the stored answer of one turn in step with what the user
// saw, so that a crash loses at most SaveEvery or SaveEveryTokens of it.
type turnSaver struct {
	id         AnswerID
	started    bool      // the question and the answer's row exist
	savedAt    time.Time // clock time of the last save
	tokens     int       // tokens shown so far
	savedUpTo  int       // tokens shown at the last save
	firstError error
}

// saving reports whether this run stores its conversation at all.
func (r *run) saving() bool {
	return r.deps.Messages != nil && r.req.ConversationID != ""
}

// saveContext outlives a client that has gone away (the partial answer is
// still saved) but has its own limit.
func (r *run) saveContext() (context.Context, context.CancelFunc) {
	return withDeadline(context.WithoutCancel(r.ctx), r.deps.Clock,
		r.deps.Clock.Now().Add(r.cfg.SaveTimeout), errors.New("save timed out"))
}

// savedQuestion is the question as it is kept: redacted when the guardrail
// found personal data.
func (r *run) savedQuestion() SavedMessage {
	q := r.req.Question
	if r.verdict.Action == ActionRedact {
		q = r.verdict.Redacted
	}
	return SavedMessage{ConversationID: r.req.ConversationID, Role: "user", Content: q,
		Status: StatusComplete, At: r.deps.Clock.Now()}
}

// startAnswer saves the question and an empty streaming answer before the
// model is called, so a crash from here on still leaves the question and
// whatever part of the answer had been saved.
func (r *run) startAnswer() {
	if !r.saving() {
		return
	}
	ctx, cancel := r.saveContext()
	defer cancel()
	q := r.savedQuestion()
	id, err := r.deps.Messages.StartAnswer(ctx, q, SavedMessage{ConversationID: r.req.ConversationID,
		Role: "assistant", Status: StatusStreaming, At: q.At})
	if err != nil {
		r.saver.note(fmt.Errorf("save question: %w", err))
		return
	}
	r.saver.id, r.saver.started, r.saver.savedAt = id, true, r.deps.Clock.Now()
}

// growAnswer is called each time text reaches the user: it rewrites the
// stored answer once enough time or tokens have passed since the last save.
// Saving here, on the delivery path, keeps the stored text exactly what was
// shown; the cadence bounds what that costs.
func (r *run) growAnswer(a *answer, tokens int) {
	s := &r.saver
	s.tokens += tokens
	if !s.started || a.status != "" { // settled: finishAnswer saves it next
		return
	}
	now := r.deps.Clock.Now()
	if s.tokens-s.savedUpTo < r.cfg.SaveEveryTokens && now.Sub(s.savedAt) < r.cfg.SaveEvery {
		return
	}
	ctx, cancel := r.saveContext()
	defer cancel()
	err := r.deps.Messages.UpdateAnswer(ctx, s.id, SavedMessage{ConversationID: r.req.ConversationID,
		Role: "assistant", Content: a.text.String(), Status: StatusStreaming, OutputTokens: s.tokens, Tier: a.tier})
	if err != nil {
		s.note(fmt.Errorf("save partial answer: %w", err))
		return
	}
	s.savedAt, s.savedUpTo = now, s.tokens
}

// finishAnswer stores the answer as shown with how it ended. A turn that
// never reached the model (blocked, or failed before it) is saved whole
// here. It returns the first error of any save of this turn.
func (r *run) finishAnswer(res *Result) error {
	if !r.saving() {
		return nil
	}
	// Saving is not modelled: on the modelled timeline it takes what it
	// took on the host, after the answer.
	from, wallFrom := r.rec.lastAt(), r.rec.since()
	sp := r.rec.begin(StageSave, res.Tier, from)
	ctx, cancel := r.saveContext()
	defer cancel()
	content := res.Text
	if res.Status == StatusBlocked {
		content = res.Message
	}
	final := SavedMessage{ConversationID: r.req.ConversationID, Role: "assistant", Content: content,
		Status: res.Status, PromptTokens: res.Usage.PromptTokens, OutputTokens: res.Usage.CompletionTokens,
		Tier: res.Tier, At: r.deps.Clock.Now()}
	var err error
	if r.saver.started {
		err = r.deps.Messages.UpdateAnswer(ctx, r.saver.id, final)
	} else {
		_, err = r.deps.Messages.StartAnswer(ctx, r.savedQuestion(), final)
	}
	if err != nil {
		r.saver.note(fmt.Errorf("save messages: %w", err))
	}
	sp.end(from+r.rec.since()-wallFrom, res.Status, err)
	return r.saver.firstError
}

// note keeps the first save failure; later saves still run, so one slow
// write does not cost the rest of the answer.
func (s *turnSaver) note(err error) {
	if s.firstError == nil {
		s.firstError = err
	}
}
