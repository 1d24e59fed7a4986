package openaiapi

import (
	"net/http"

	"github.com/latencylab/latencylab/engine/openaiapi/wire"
	"github.com/latencylab/latencylab/engine/textmodel"
)

func (s *Server) chat(w http.ResponseWriter, r *http.Request) error {
	req, err := wire.DecodeChatRequest(r.Body, s.limits())
	if err != nil {
		return err
	}
	if err := s.checkModel(req.Model); err != nil {
		return err
	}
	msgs := make([]textmodel.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = textmodel.Message{Role: m.Role, Content: m.Content}
	}
	id := newID("chatcmpl-")
	g := &generation{
		id: id, prompt: s.text.PromptTokens(msgs), stream: req.Stream, withUsage: req.WithUsage, param: "messages",
		checkText: lastUserText(msgs),
		format:    chatFormat{id: id, model: s.cfg.ModelName, created: s.cfg.Clock.Now().Unix()},
	}
	if err := s.compose(g, msgs, req.Params); err != nil {
		return err
	}
	return s.serve(w, r, g)
}

// limits are the served model's bounds, so a refusal states the real range.
func (s *Server) limits() wire.Limits {
	m := s.cfg.Engine.Config().Model
	return wire.Limits{VocabSize: m.VocabSize, MaxContext: m.MaxContextLen}
}

func (s *Server) completion(w http.ResponseWriter, r *http.Request) error {
	req, err := wire.DecodeCompletionRequest(r.Body, s.limits())
	if err != nil {
		return err
	}
	if err := s.checkModel(req.Model); err != nil {
		return err
	}
	id := newID("cmpl-")
	g := &generation{
		id: id, stream: req.Stream, withUsage: req.WithUsage, param: "prompt",
		format: textFormat{id: id, model: s.cfg.ModelName, created: s.cfg.Clock.Now().Unix()},
	}
	text := req.Prompt
	if req.PromptIDs != nil {
		g.prompt, text = req.PromptIDs, s.text.Decode(req.PromptIDs)
	} else {
		g.prompt = s.text.Encode(req.Prompt)
	}
	g.checkText = text
	if err := s.compose(g, []textmodel.Message{{Role: textmodel.RoleUser, Content: text}}, req.Params); err != nil {
		return err
	}
	return s.serve(w, r, g)
}

// lastUserText is the message a prompt check reads: the user's latest
// turn. Context (system and tool messages) is the operator's, and checking
// it would refuse every request whose retrieved documents quote an
// instruction.
func lastUserText(msgs []textmodel.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == textmodel.RoleUser {
			return msgs[i].Content
		}
	}
	return ""
}

func (s *Server) models(w http.ResponseWriter, _ *http.Request) error {
	return writeJSON(w, modelList{Object: "list", Data: []modelCard{{
		ID: s.cfg.ModelName, Object: "model", Created: s.cfg.Clock.Now().Unix(), OwnedBy: "latencylab",
		Root: s.cfg.ModelName, MaxModelLen: s.cfg.Engine.Config().Model.MaxContextLen,
	}}})
}
