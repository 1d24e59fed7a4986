package web

import (
	"context"
	"strings"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/views"
)

// streamAnswer runs req through the pipeline on the stream runner under
// ctx and patches the live turn into the page as it grows, at most once
// per PatchInterval (events can come every few milliseconds and each
// patch carries the whole turn). pageCtx is the request's own context,
// for rendering. The pipeline's result is nil when it refused the
// question or panicked; run says which, and how the run ended.
func (h *chat) streamAnswer(ctx, pageCtx context.Context, st *stream, req pipeline.Request) (*pipeline.Result, streamResult[turnState]) {
	var res *pipeline.Result
	answer := func(ctx context.Context, publish func(turnState)) error {
		var turn liveTurn
		turn.state.fig.Server = h.server
		var err error
		res, err = h.pipe.Run(ctx, req, func(ev pipeline.Event) { publish(turn.observe(ev)) })
		return err
	}
	runner := streamRunner[turnState]{Name: "chat answer", Clock: h.srv.cfg.Clock, Gap: h.srv.cfg.PatchInterval}
	folded := false // the page shows the thinking folded, under a streaming answer
	run := runner.run(ctx, answer, func(ts turnState) error {
		turn := liveView(req.Question, ts)
		if folded {
			// Leave the folded thinking alone: a morph would shut it if
			// the learner has opened it.
			return st.patch(pageCtx, "chat-live-a-body", views.ChatBubbleBody(turn[1]))
		}
		folded = turn[1].Thinking != nil && !turn[1].Thinking.Active
		return st.patch(pageCtx, "chat-live", views.ChatLive(turn))
	})
	return res, run
}

// liveTurn gathers the pipeline's events into the state of the turn being
// answered. The pipeline never calls its callback concurrently, so it
// needs no lock; each state it hands out is a copy the page can draw
// while the answer grows.
type liveTurn struct {
	text    strings.Builder
	thought strings.Builder
	state   turnState
}

// turnState is the turn so far: what the page draws.
type turnState struct {
	text    string
	thought string // a reasoning model's thinking so far
	fig     chatFigures
	stage   string // what runs now
	failed  string // the pipeline's message when the answer went wrong
	status  string
}

// observe takes one pipeline event and returns the turn's new state.
func (t *liveTurn) observe(ev pipeline.Event) turnState {
	t.state.fig.observe(ev)
	switch ev.Kind {
	case pipeline.EventStageStart:
		if s := stageLabel(ev.Span, t.state.fig.Server); s != "" {
			t.state.stage = s
		}
	case pipeline.EventThinking:
		t.thought.WriteString(ev.Text)
		t.state.thought = t.thought.String()
	case pipeline.EventDelta:
		t.text.WriteString(ev.Text)
		t.state.text = t.text.String() // shares the builder's bytes, which later writes never change
	case pipeline.EventError:
		t.state.failed, t.state.status = ev.Err, ev.Status
	}
	return t.state
}

// stageLabel says what the learner is waiting for; server names the one
// server that answers, if one does, in place of the model tier.
func stageLabel(sp pipeline.Span, server string) string {
	switch sp.Stage {
	case pipeline.StageGuardrail:
		return "Checking the message…"
	case pipeline.StageContext:
		return "Looking up history, articles and your order…"
	case pipeline.StagePrompt:
		return "Assembling the prompt…"
	case pipeline.StageCache:
		return "Checking the response cache…"
	case pipeline.StageAttempt, pipeline.StageFirstToken:
		if server != "" {
			return "Waiting for the first token from " + server + "…"
		}
		if sp.Tier != "" {
			return "Waiting for the first token from the " + sp.Tier + " model…"
		}
		return "Waiting for the first token…"
	case pipeline.StageSave:
		return "Saving…"
	}
	return ""
}

// liveView draws the turn so far: the question and the answer streaming in.
func liveView(question string, ts turnState) []views.ChatMessage {
	a := views.ChatMessage{DOMID: "chat-live-a", Role: "assistant", Text: ts.text, Status: "streaming",
		Stages: ts.stage, Figures: ts.fig.view(), Thinking: ts.fig.thinkingView(ts.thought, ts.text == "" && ts.status == "")}
	if a.Thinking != nil && !a.Thinking.Active {
		a.FiguresNote = ts.fig.figuresNote() // once the thinking is over
	}
	if a.Stages == "" {
		a.Stages = "Sending…"
	}
	if ts.status != "" {
		a.Status = ts.status
		a.Note = noteFor(ts.status, a.Text != "", "")
		if ts.status == pipeline.StatusBlocked {
			a.Text = ts.failed
		}
	}
	return []views.ChatMessage{{DOMID: "chat-live-q", Role: "user", Text: question, Status: pipeline.StatusComplete}, a}
}

// finalView draws the finished turn from the result, for when the saved
// conversation cannot be shown instead.
func finalView(question string, res *pipeline.Result, fig chatFigures) []views.ChatMessage {
	a := views.ChatMessage{DOMID: "chat-live-a", Role: "assistant", Text: res.Text, Status: res.Status,
		Figures: fig.view(), Sources: fig.Sources, Note: noteFor(res.Status, res.Text != "", fig.Message),
		Thinking: fig.thinkingView(fig.Reasoning, false), FiguresNote: fig.figuresNote()}
	if res.Status == pipeline.StatusBlocked {
		a.Text = res.Message
	}
	return []views.ChatMessage{{DOMID: "chat-live-q", Role: "user", Text: question, Status: pipeline.StatusComplete}, a}
}
