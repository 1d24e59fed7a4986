package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// ChatBackend is what the support-desk chat needs from outside the web
// package: the model tiers (bundled engines or an upstream server) and the
// pipeline's settings. The server supplies its own store as the pipeline's
// history, retrieval, order and message ports.
type ChatBackend struct {
	Tiers []pipeline.Tier
	// Pipeline is the pipeline configuration; the zero value means
	// pipeline.DefaultConfig with the question limit set to MaxChars.
	Pipeline *pipeline.Config
	// Label says what answers, shown on the page, e.g. "the bundled engine".
	Label string
	// Server is set when one OpenAI-compatible server answers: its URL and
	// model, e.g. "http://127.0.0.1:8000/v1 (qwen3:8b)". Each answer then
	// names it in place of a tier and a price, which mean nothing for a
	// server the learner runs.
	Server string
	// MaxChars is the longest message accepted; default 2,000 characters.
	MaxChars int
}

// chatMaxChars is the default message limit: a support question, not a
// document.
const chatMaxChars = 2000

// chatConvListSize is how many previous conversations the page lists.
const chatConvListSize = 12

// chatExamples are knowledge-base questions whose article ranks first,
// and one about an order of the learner's own demo customer (only their
// orders are visible to the desk).
func chatExamples(customer string) []string {
	qs := []string{"How long do refunds take?"}
	if id := store.DemoOrderToAsk(customer); id != "" {
		qs = append(qs, "Where is my order "+id+"?")
	}
	return append(qs, "Do you ship to Germany? Will I pay customs duties?", "The zipper broke on my jacket, is that covered?")
}

// chat is the support-desk chat: its pipeline, and which answers are
// streaming so Stop can cancel them and a second send waits its turn.
type chat struct {
	srv         *Server
	pipe        *pipeline.Pipeline
	maxChars    int
	label       string
	server      string // ChatBackend.Server
	unavailable string // why the chat cannot answer, if it cannot

	running *runningWork // learner/conversation → the answer streaming there
}

// registerChat seeds the support desk and adds the chat routes. With no
// ChatBackend configured, or a failed seed, the page still opens and says
// why it cannot answer.
func (s *Server) registerChat(site []echo.MiddlewareFunc) {
	h := &chat{srv: s, maxChars: chatMaxChars, running: newRunningWork(s.cfg.Clock)}
	switch err := h.setUp(s.cfg.Chat); {
	case errors.Is(err, errNoChatBackend):
		h.unavailable = "The support desk has no model on this server, so it cannot answer."
	case err != nil:
		s.cfg.Logger.Error("chat unavailable", "err", err)
		h.unavailable = "The support desk is not available on this server right now."
	}
	e := s.echo
	e.GET("/chat", h.handlePage, site...)
	e.GET("/chat/:id", h.handlePage, site...)
	e.POST("/chat/new", h.handleNew, site...)
	// Stream routes answer every refusal inside the page, so their error
	// handler wraps the whole chain, rate limit and body limit included.
	streamed := append([]echo.MiddlewareFunc{h.errorsInPage}, site...)
	e.POST("/chat/send", h.handleSend, streamed...)
	// Stop is not rate-limited: a learner must always be able to stop.
	e.POST("/chat/stop", h.handleStop, h.errorsInPage, s.limitBody, s.withLearner, s.sameOrigin)
}

var errNoChatBackend = errors.New("no chat backend configured")

// setUp seeds the knowledge base and builds the pipeline over the store.
func (h *chat) setUp(b *ChatBackend) error {
	if b == nil {
		return errNoChatBackend
	}
	if b.MaxChars > 0 {
		h.maxChars = b.MaxChars
	}
	h.label, h.server = b.Label, b.Server
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.srv.store.SeedSupportDesk(ctx); err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	cfg := pipeline.DefaultConfig()
	if b.Pipeline != nil {
		cfg = *b.Pipeline
	}
	cfg.MaxQuestionChars = h.maxChars
	st := h.srv.store
	p, err := pipeline.New(cfg, pipeline.Deps{Tiers: b.Tiers, History: st, Retriever: st, Orders: st,
		Messages: st, Cache: pipeline.NewCache(256)})
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	h.pipe = p
	return nil
}

// chatSignals are the Datastar signals the chat page posts.
type chatSignals struct {
	Input string `json:"chatInput"`
	Conv  string `json:"chatConv"`
}

// handlePage serves /chat (the newest conversation) and /chat/{id}.
func (h *chat) handlePage(c echo.Context) error {
	ctx := c.Request().Context()
	learner := learnerID(c)
	convs, err := h.srv.store.ListConversations(ctx, learner, chatConvListSize)
	if err != nil {
		return fmt.Errorf("chat page: %w", err)
	}
	conv := c.Param("id")
	if conv == "" && len(convs) > 0 {
		conv = convs[0].ID
	}
	var msgs []views.ChatMessage
	if conv != "" {
		if msgs, err = h.messages(ctx, learner, conv); err != nil {
			if errors.Is(err, store.ErrConversationNotFound) {
				return notFound("conversation with that address")
			}
			return err
		}
	}
	sig, _ := json.Marshal(map[string]any{"chatInput": "", "chatConv": conv, "chatBusy": false})
	page := views.ChatPage{ConvID: conv, Signals: string(sig), Messages: msgs,
		Conversations: convItems(convs, conv), Unavailable: h.unavailable, MaxChars: h.maxChars}
	if h.pipe != nil {
		page.Backend = h.label
		if page.Backend == "" {
			page.Backend = "the model tiers configured on this server"
		}
	}
	if cust, ok := demoCustomer(learner); ok {
		page.Customer, page.CustomerNote = cust.Name, cust.Note
	}
	for _, q := range chatExamples(store.DemoCustomerFor(learner)) {
		page.Examples = append(page.Examples, views.ChatExample{Text: q, OnClick: "$chatInput = " + strconv.Quote(q)})
	}
	p := h.srv.pageWithJS(c, "Support desk chat", "chat")
	p.Description = "A support-desk chat that answers from a knowledge base through a real serving pipeline, with the latency of every stage under each answer."
	return render(c, http.StatusOK, views.ChatView(p, page))
}

// handleNew starts an empty conversation and opens it.
func (h *chat) handleNew(c echo.Context) error {
	id, err := h.srv.store.CreateConversation(c.Request().Context(), learnerID(c))
	if err != nil {
		return fmt.Errorf("new conversation: %w", err)
	}
	return c.Redirect(http.StatusSeeOther, "/chat/"+id)
}

// convItems formats the conversation list.
func convItems(convs []store.Conversation, current string) []views.ChatConv {
	out := make([]views.ChatConv, 0, len(convs))
	for _, cv := range convs {
		title := strings.TrimSpace(cv.Title)
		if title == "" {
			title = "New conversation"
		}
		out = append(out, views.ChatConv{URL: "/chat/" + cv.ID, Title: title,
			When: cv.CreatedAt.UTC().Format("Jan 2, 15:04"), Messages: cv.Messages, Current: cv.ID == current})
	}
	return out
}

// demoCustomer is the demo customer a learner plays in the chat.
func demoCustomer(learner string) (store.DemoCustomer, bool) {
	id := store.DemoCustomerFor(learner)
	for _, d := range store.DemoCustomers() {
		if d.ID == id {
			return d, true
		}
	}
	return store.DemoCustomer{}, false
}

// errorsInPage answers a failed chat stream request with a message in the
// page's error box, under the right status, instead of an error page the
// Datastar client would drop. The conversation on the page stays as it was.
func (h *chat) errorsInPage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || c.Response().Committed {
			return err
		}
		pe := publicError(err)
		rid := requestID(c)
		h.srv.cfg.Logger.Info("chat request refused", "id", rid, "status", pe.Status, "path", c.Request().URL.Path, "err", err)
		if pe.RetryAfter > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(pe.RetryAfter))
		}
		msg := pe.Message
		if pe.Status >= 500 && rid != "" {
			msg += " (Reference: " + rid + ".)"
		}
		st := openStream(c, pe.Status)
		_ = st.patch(c.Request().Context(), "chat-error", views.ChatError(msg))
		return nil
	}
}

// chatRefusal is a send refused before anything ran, with a status and the
// message the learner sees.
func chatRefusal(status int, msg string) error {
	return &httpError{Status: status, Title: "Message not sent", Message: msg}
}
