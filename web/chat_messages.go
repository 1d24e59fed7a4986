package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/views"
)

// messages loads a conversation as bubbles, with the figures and sources
// saved beside each answer.
func (h *chat) messages(ctx context.Context, learner, conv string) ([]views.ChatMessage, error) {
	stored, err := h.srv.store.ListMessages(ctx, learner, conv)
	if err != nil {
		return nil, fmt.Errorf("chat messages: %w", err)
	}
	figs, err := h.srv.store.ChatFigures(ctx, learner, conv)
	if err != nil {
		return nil, fmt.Errorf("chat messages: %w", err)
	}
	out := make([]views.ChatMessage, 0, len(stored))
	for _, m := range stored {
		vm := views.ChatMessage{DOMID: "msg-" + strconv.FormatInt(m.ID, 10), Role: m.Role, Text: m.Content, Status: m.Status}
		if m.Role == "assistant" {
			var f chatFigures
			if raw, ok := figs[m.ID]; ok {
				if err := json.Unmarshal(raw, &f); err != nil {
					h.srv.cfg.Logger.Warn("chat figures unreadable", "message", m.ID, "err", err)
				}
			} else {
				// Saved without figures (the figures failed to save):
				// the message row still has its tokens and tier.
				f = chatFigures{PromptTokens: m.PromptTokens, OutputTokens: m.OutputTokens, Tier: m.Tier}
			}
			vm.Note = noteFor(m.Status, m.Content != "", f.Message)
			vm.Figures, vm.Sources = f.view(), f.Sources
			vm.Thinking, vm.FiguresNote = f.thinkingView(f.Reasoning, false), f.figuresNote()
		}
		out = append(out, vm)
	}
	return out, nil
}

// noteFor explains how an answer ended, under its text. msg is the
// reason recorded with the answer's figures.
func noteFor(status string, hasText bool, msg string) string {
	switch status {
	case pipeline.StatusCancelled:
		if msg != "" {
			return "Stopped: " + msg
		}
		if !hasText {
			return "Stopped before the first word."
		}
		return "Stopped — the partial answer was saved and counts as history."
	case pipeline.StatusError, pipeline.StatusTimeout:
		if msg == "" && status == pipeline.StatusTimeout {
			msg = "it took longer than this desk allows."
		} else if msg == "" {
			msg = "the model failed part-way."
		}
		if !hasText {
			return "No answer: " + msg
		}
		return "The answer was cut off: " + msg
	case pipeline.StatusBlocked:
		if msg != "" {
			return "Why: " + msg
		}
	case pipeline.StatusInterrupted:
		if !hasText {
			return "No answer: the server stopped before the first word."
		}
		return "Cut off: the server stopped while this answer was streaming. This is what was saved."
	}
	return ""
}
