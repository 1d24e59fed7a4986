package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// errStopped is the cancel cause of an answer the learner stopped.
var errStopped = errors.New("stopped by the learner")

// handleSend serves POST /chat/send: it checks the message, then streams
// the answer through the whole pipeline into the page — the question at
// once, then the stages as they finish, the text as it arrives, and the
// figures, sources and ending once the answer is saved. Refusals before
// the stream starts are answered in the page by errorsInPage.
func (h *chat) handleSend(c echo.Context) error {
	if h.pipe == nil {
		return chatRefusal(http.StatusServiceUnavailable, h.unavailable)
	}
	var sig chatSignals
	if err := readSignals(c.Request(), &sig); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return echo.ErrStatusRequestEntityTooLarge
		}
		return badRequest("The message could not be read. Reload the page and try again.", err)
	}
	q := strings.TrimSpace(cleanChatInput(sig.Input))
	switch n := utf8.RuneCountInString(q); {
	case q == "":
		return chatRefusal(http.StatusUnprocessableEntity, "Type a question first: an empty message cannot be sent.")
	case !utf8.ValidString(q):
		return chatRefusal(http.StatusBadRequest, "The message contains characters that could not be read. Retype it and send again.")
	case n > h.maxChars:
		return chatRefusal(http.StatusUnprocessableEntity,
			fmt.Sprintf("Your message has %d characters; the limit is %d. Shorten it and send again.", n, h.maxChars))
	}

	ctx := c.Request().Context()
	learner := learnerID(c)
	conv := sig.Conv
	if conv != "" {
		if err := h.srv.store.CheckConversation(ctx, learner, conv); err != nil {
			if errors.Is(err, store.ErrConversationNotFound) {
				return &httpError{Status: http.StatusNotFound, Title: "Conversation not found",
					Message: "This conversation does not exist or is not yours. Start a new conversation.", Err: err}
			}
			return err
		}
	} else {
		id, err := h.srv.store.CreateConversation(ctx, learner)
		if err != nil {
			return fmt.Errorf("chat send: %w", err)
		}
		conv = id
	}

	release, err := h.srv.acquireRun(c, fmt.Sprintf("You already have %d answers or lab runs going. Wait for one to finish, then send again.", h.srv.cfg.MaxRuns))
	if err != nil {
		return err
	}
	defer release()
	runCtx, stop, releaseCtx := h.srv.runContext(ctx, errors.New("answer took too long"))
	defer releaseCtx()
	key := learner + "/" + conv
	busy, remove := h.running.add(key, stop)
	defer remove()
	if busy > 0 {
		return chatRefusal(http.StatusConflict, "An answer is still streaming in this conversation. Wait for it, or press Stop.")
	}

	st := openStream(c, http.StatusOK)
	sigs, _ := json.Marshal(map[string]string{"chatInput": "", "chatConv": conv})
	if st.mergeSignals(string(sigs)) != nil || st.patch(ctx, "chat-error", views.ChatError("")) != nil ||
		st.patch(ctx, "chat-live", views.ChatLive(liveView(q, turnState{}))) != nil {
		return nil // the learner left before anything ran
	}

	log := h.srv.cfg.Logger.With("id", requestID(c), "conversation", conv)
	req := pipeline.Request{ID: "chat-" + requestID(c), ConversationID: conv,
		Customer: store.DemoCustomerFor(learner), Question: q, Seed: rand.Int64()}
	res, run := h.streamAnswer(runCtx, ctx, st, req)
	if run.Err != nil || res == nil {
		_ = st.patch(ctx, "chat-live", views.ChatLive(nil))
		var bad *pipeline.InputError
		if errors.As(run.Err, &bad) {
			// Only input the checks above already refuse gets here.
			log.Warn("chat question refused by the pipeline", "err", run.Err)
			_ = st.patch(ctx, "chat-error", views.ChatError("That message could not be answered: "+shortErr(run.Err)))
			return nil
		}
		log.Error("chat answer failed", "err", run.Err)
		_ = st.patch(ctx, "chat-error", views.ChatError("The answer failed on our side (reference "+requestID(c)+"). Try again."))
		return nil
	}
	h.showAnswer(ctx, st, log, learner, conv, q, res, errors.Is(run.Cause, errShuttingDown))
	return nil
}

// showAnswer saves a finished answer's figures beside it and replaces the
// live turn with the saved conversation, or, when that cannot be read
// back, with the finished turn drawn from res.
func (h *chat) showAnswer(ctx context.Context, st *stream, log *slog.Logger, learner, conv, q string, res *pipeline.Result, shuttingDown bool) {
	var fig chatFigures
	fig.fromResult(res)
	fig.Server = h.server
	if shuttingDown {
		fig.Message = "the server is shutting down."
	}
	log.Info("chat answered", "status", res.Status, "tier", res.Tier, "first_word", res.Summary.FirstWord,
		"total", res.Summary.Total, "tokens", res.Summary.OutputTokens, "save_err", res.SaveErr)

	saved := res.SaveErr == nil
	if saved {
		b, err := json.Marshal(fig)
		if err == nil {
			_, err = h.srv.store.SaveChatFigures(context.WithoutCancel(ctx), conv, b)
		}
		if err != nil {
			log.Error("save chat figures", "err", err)
		}
	} else {
		log.Error("chat answer not saved", "err", res.SaveErr)
	}
	if ctx.Err() != nil {
		return // the learner left; the partial answer is saved
	}
	if saved {
		msgs, err := h.messages(ctx, learner, conv)
		if err == nil {
			_ = st.patch(ctx, "chat-log", views.ChatLog(msgs))
			if convs, err := h.srv.store.ListConversations(ctx, learner, chatConvListSize); err == nil {
				_ = st.patch(ctx, "chat-convs", views.ChatConvList(convItems(convs, conv)))
			}
			return
		}
		log.Error("reload chat", "err", err)
	}
	final := finalView(q, res, fig)
	if !saved {
		final[1].Note += " This answer could not be saved, so it will be missing after a reload."
	}
	_ = st.patch(ctx, "chat-live", views.ChatLive(final))
}

// handleStop serves POST /chat/stop: it cancels the answer streaming in
// the learner's conversation. That answer's own stream then shows it
// stopped, and the pipeline saves the partial text as "cancelled".
func (h *chat) handleStop(c echo.Context) error {
	var sig chatSignals
	if err := readSignals(c.Request(), &sig); err != nil {
		return badRequest("The stop request could not be read. Reload the page.", err)
	}
	h.running.cancel(learnerID(c)+"/"+sig.Conv, errStopped)
	openStream(c, http.StatusOK) // an empty stream: the client expects SSE
	return nil
}
