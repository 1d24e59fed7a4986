package web

// attachedServer is the line the home page and /labs show when a server
// of the learner's own is attached (--upstream-url), with its address and
// model, so they know before opening a lab or the chat; "" without one.
func (s *Server) attachedServer() string {
	labsOnIt := s.cfg.Upstream != nil
	chatOnIt := s.cfg.Chat != nil && s.cfg.Chat.Server != ""
	switch {
	case labsOnIt && chatOnIt:
		return "Attached: " + s.cfg.Upstream.Label + ". Labs with an Engine setting can run on it beside the bundled engine, and the chat answers from it."
	case labsOnIt:
		return "Attached: " + s.cfg.Upstream.Label + ". Labs with an Engine setting can run on it beside the bundled engine."
	case chatOnIt:
		return "Attached: the server at " + s.cfg.Chat.Server + ". The chat answers from it; the labs run on the bundled engine."
	}
	return ""
}
