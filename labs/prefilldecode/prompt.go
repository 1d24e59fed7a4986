package prefilldecode

import (
	"fmt"
	"strings"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// Part names: the legend of the prompt chart and the rows of its table.
const (
	partSystem   = "system prompt"
	partRAG      = "RAG chunks"
	partHistory  = "history"
	partQuestion = "question"
	partDocument = "document"
)

// Nominal sizes of the support bot's parts, as in the lesson's table: each
// retrieved chunk is about a hundred tokens, each earlier turn about fifty.
// A part's size counts its message as the model reads it, chat-template
// markers included, so the parts add up to the prompt.
const (
	chunkTokens = 100
	turnTokens  = 50
)

// promptSpec says how to build a prompt.
type promptSpec struct {
	plain  bool // a plain prompt of total tokens; otherwise built from parts
	total  int  // plain: the exact prompt length
	system int  // system prompt tokens (plain: capped to leave room)
	chunks int  // parts: retrieved chunks
	turns  int  // parts: earlier turns
}

// partCount is one part's size, counted by the real tokenizer.
type partCount struct {
	name   string
	tokens int
}

// prompt is a built request prompt.
type prompt struct {
	ids []int // what the engine prefills
	// msgs are the messages the answer is composed from: for a built
	// prompt exactly the prompt's, for a plain one its first pages.
	msgs  []textmodel.Message
	parts []partCount // in prompt order; they sum to len(ids)
}

// customer selects the conversation: 0 is the learner's request, 1 the
// other customer of the prefix-caching comparison (another question,
// other passages and another stretch of history behind the same system
// prompt).
type customer int

// buildPrompt builds the support bot's prompt for spec. session, a line
// unique to the run, opens the system prompt: requests with the same session
// share the system prompt's tokens (and so its cached blocks); requests with
// different sessions share nothing cacheable.
func buildPrompt(spec promptSpec, session string, who customer) (prompt, error) {
	q := questions[int(who)%len(questions)]
	qMsg := textmodel.Message{Role: textmodel.RoleUser, Content: q}
	// Template tokens outside any message: begin-of-text (counted with the
	// system prompt) and the assistant header after the question (counted
	// with it), so the parts add up to the whole prompt.
	tmpl := len(textmodel.PromptTokens(nil))
	qPart := msgTokens(qMsg) + tmpl - 1

	system := spec.system
	if spec.plain {
		// Leave room for the question and the document's heading.
		system = min(system, spec.total-qPart-3*overhead(textmodel.RoleSystem))
		if system < 16 {
			return prompt{}, fmt.Errorf("a prompt of %d tokens is too short: the question alone takes %d", spec.total, qPart)
		}
	}
	sysText := fitText(systemSource(session), system-overhead(textmodel.RoleSystem)-1)
	msgs := []textmodel.Message{{Role: textmodel.RoleSystem, Content: sysText}}
	names := []string{partSystem}

	if spec.plain {
		return plainPrompt(spec.total, msgs[0], qMsg, int(who))
	}
	if spec.chunks > 0 {
		msgs = append(msgs, textmodel.Message{Role: textmodel.RoleSystem,
			Content: fitText(chunksSource(spec.chunks+1, int(who)*3), spec.chunks*chunkTokens-overhead(textmodel.RoleSystem))})
		names = append(names, partRAG)
	}
	for _, t := range historyTurns(spec.turns, int(who)*4) {
		msgs = append(msgs, textmodel.Message{Role: t.role,
			Content: fitText(t.text, turnTokens-overhead(t.role))})
		names = append(names, partHistory)
	}
	msgs = append(msgs, qMsg)
	names = append(names, partQuestion)

	p := prompt{ids: textmodel.PromptTokens(msgs), msgs: msgs}
	for i, m := range msgs {
		n := msgTokens(m)
		switch i {
		case 0:
			n++ // begin-of-text
		case len(msgs) - 1:
			n += tmpl - 1 // the assistant header that follows
		}
		if k := len(p.parts); k > 0 && p.parts[k-1].name == names[i] {
			p.parts[k-1].tokens += n
			continue
		}
		p.parts = append(p.parts, partCount{name: names[i], tokens: n})
	}
	return p, nil
}

// msgTokens is one message's tokens as the template renders it.
func msgTokens(m textmodel.Message) int {
	return len(textmodel.PromptTokens([]textmodel.Message{m})) - len(textmodel.PromptTokens(nil))
}

// overhead is the template markers around one message of role.
func overhead(role string) int { return msgTokens(textmodel.Message{Role: role}) }

// fitText returns the longest leading slice of src (cut at a token
// boundary) whose own encoding has n tokens, or as close to n as a few
// corrections get: decoding a cut and encoding it again can merge tokens
// at the cut. It returns "" for n ≤ 0 and all of src when src is shorter.
func fitText(src string, n int) string {
	if n <= 0 {
		return ""
	}
	ids := textmodel.Encode(src)
	if len(ids) <= n {
		return strings.TrimSpace(src)
	}
	k := n
	var t string
	for range 6 {
		k = max(1, min(k, len(ids)))
		t = strings.TrimSpace(textmodel.Decode(ids[:k]))
		c := textmodel.Count(t)
		if c == n {
			break
		}
		k += n - c
	}
	return t
}

// systemSource is the system prompt's text: the session line, the
// instructions and, for long system prompts, the shop's policy handbook
// (the help centre, section by section, as long as needed).
func systemSource(session string) string {
	var b strings.Builder
	b.WriteString(session)
	b.WriteString("\n")
	b.WriteString(instructions)
	b.WriteString("\n\nPolicy handbook:\n")
	for s := 0; s < 60; s++ {
		a := helpCentre[s%len(helpCentre)]
		fmt.Fprintf(&b, "\nSection %d. %s\n%s\n", s+1, a.title, a.body)
	}
	return b.String()
}

// chunksSource is n retrieved passages of about chunkTokens each, starting
// at article first, under a heading, as a retriever would paste them.
func chunksSource(n, first int) string {
	var b strings.Builder
	b.WriteString("Help-centre passages:\n")
	for i := range n {
		a := helpCentre[(first+i)%len(helpCentre)]
		chunk := fmt.Sprintf("[%d] %s\n%s", i+1, a.title, a.body)
		b.WriteString("\n")
		b.WriteString(fitText(chunk, chunkTokens-1))
		b.WriteString("\n")
	}
	return b.String()
}

// docHeading opens the document of a plain prompt.
const docHeading = "Help-centre guide:"

// plainPrompt is the system prompt, a help-centre document and the
// question, exactly total tokens long. The document's token ids are
// spliced in at the end of its message, just before the end-of-turn
// marker: each turn is encoded on its own between marker tokens, so the
// splice yields the template's layout and an exact count, without encoding
// a long text again for every length (a sweep builds eight of them).
func plainPrompt(total int, sys, q textmodel.Message, who int) (prompt, error) {
	head := textmodel.Message{Role: textmodel.RoleSystem, Content: docHeading}
	msgs := []textmodel.Message{sys, head, q}
	base := textmodel.PromptTokens(msgs)
	need := total - len(base)
	if need < 0 {
		return prompt{}, fmt.Errorf("a prompt of %d tokens is too short for its system prompt and question (%d)", total, len(base))
	}
	eot := len(textmodel.PromptTokens(msgs[:2])) - len(textmodel.PromptTokens(nil))
	if base[eot] != textmodel.EndOfTurn {
		return prompt{}, fmt.Errorf("prompt: chat template layout changed (token %d is %d, want end of turn)", eot, base[eot])
	}
	body := documentIDs(need, who)
	ids := make([]int, 0, total)
	ids = append(ids, base[:eot]...)
	ids = append(ids, body...)
	ids = append(ids, base[eot:]...)

	sysN := msgTokens(sys) + 1
	qN := msgTokens(q) + len(textmodel.PromptTokens(nil)) - 1
	p := prompt{ids: ids, parts: []partCount{
		{name: partSystem, tokens: sysN},
		{name: partDocument, tokens: total - sysN - qN},
		{name: partQuestion, tokens: qN},
	}}
	// The answer is composed from the document's first pages: a composer
	// ranking sentences gains nothing from the guide's repeats.
	doc := head
	doc.Content = docHeading + textmodel.Decode(body[:min(len(body), 1500)])
	p.msgs = []textmodel.Message{sys, doc, q}
	return p, nil
}

// documentIDs returns exactly n token ids of the help-centre guide, page
// by page, cut at a token boundary. Pages are encoded one at a time, so
// each stays small enough for the tokenizer's cache.
func documentIDs(n, first int) []int {
	ids := make([]int, 0, n+200)
	for p := 0; len(ids) < n; p++ {
		a := helpCentre[(first+p)%len(helpCentre)]
		ids = append(ids, textmodel.Encode(fmt.Sprintf("\nPage %d. %s\n%s\n", p+1, a.title, a.body))...)
	}
	return ids[:n]
}

// historyTurns returns the last n turns of the earlier conversation,
// starting from an offset (another customer's chat), so the history always
// ends with an assistant reply before the new question.
func historyTurns(n, offset int) []turn {
	out := make([]turn, 0, n)
	period := len(history)
	for j := 2*period - n; j < 2*period; j++ {
		out = append(out, history[(j+offset)%period])
	}
	return out
}
