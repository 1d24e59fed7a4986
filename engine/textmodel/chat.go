package textmodel

import "strings"

// Message is one chat turn, as in OpenAI's chat API.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Chat roles the template and the composer recognise.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// PromptTokens renders msgs with a Llama-3 style chat template and returns
// the token ids the engine prefills:
//
//	<|begin_of_text|>
//	<|start_header_id|>ROLE<|end_header_id|>\n\nCONTENT<|eot_id|>   (per message)
//	<|start_header_id|>assistant<|end_header_id|>\n\n               (generation prompt)
//
// Each turn is encoded on its own between marker tokens, so the ids of a turn
// never depend on the turns after it: conversations that share leading
// messages (a system prompt, earlier turns) share an identical leading token
// sequence, which is what prefix caching hashes. Content is trimmed of
// surrounding whitespace, as Llama 3's template does; roles are lower-cased.
func (m *Model) PromptTokens(msgs []Message) []int {
	st := m.load()
	n := 1 + 4
	for _, msg := range msgs {
		n += 5 + len(msg.Content)/4
	}
	ids := make([]int, 0, n)
	ids = append(ids, BeginOfText)
	for _, msg := range msgs {
		ids = st.appendHeader(ids, msg.Role)
		ids = append(ids, st.encode(strings.TrimSpace(msg.Content))...)
		ids = append(ids, EndOfTurn)
	}
	return st.appendHeader(ids, RoleAssistant)
}

// appendHeader appends <|start_header_id|>role<|end_header_id|> and the
// blank line that opens a turn's content.
func (st *state) appendHeader(ids []int, role string) []int {
	role = strings.ToLower(strings.TrimSpace(role))
	if role == "" {
		role = RoleUser
	}
	ids = append(ids, StartHeader)
	ids = append(ids, st.encode(role)...)
	ids = append(ids, EndHeader)
	return append(ids, st.encode("\n\n")...)
}

// PromptTokens renders msgs with the chat template using the shared Model.
func PromptTokens(msgs []Message) []int { return shared.PromptTokens(msgs) }
