package streaming

import (
	"fmt"
	"slices"
	"strings"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// The request is a support assistant answering from its desk's notes: a
// short instruction, the notes (as many as the prompt length allows) and a
// question about the very thing the lab shows.
const (
	instructions = "Answer from the support notes."
	question     = "Why is the first word of an answer slow to appear?"
)

// supportNotes are written for this lab. A long prompt repeats them week by
// week, as a desk's notes pile up.
var supportNotes = []string{
	"Customers on the mobile app say the assistant feels slow because the screen stays blank while an answer is prepared.",
	"Most complaints about slowness come from people who wait for a full answer before anything appears on screen.",
	"When the reply streams word by word, the same customers describe the assistant as quick, although the total time is unchanged.",
	"The first words usually appear within half a second when the GPU is idle and the prompt is short.",
	"Long conversations make the first word slower, because the whole history is sent again with every new question.",
	"Attaching a large document to a question adds several hundred milliseconds before the first word.",
	"At the busiest hour of the day, requests queue for the GPU and the first word can take more than a second.",
	"One customer's corporate proxy buffered the whole stream, so their staff saw each answer appear in one block.",
	"Once that proxy passed the stream through unbuffered, answers began to appear word by word again.",
	"A customer asked why long answers still take many seconds to finish; the GPU and the model set the pace of generation.",
	"The larger model gives better answers but writes each token more slowly than the small model on the same GPU.",
	"Moving the assistant to a newer GPU with faster memory made the text flow noticeably quicker.",
	"Hardly anyone reads faster than five words a second, so text that arrives faster than that never keeps a reader waiting.",
	"Trimming the retrieved notes from ten chunks to four cut the wait for the first word without hurting answer quality.",
	"A short system prompt lets the first word appear sooner, and a shared one can be cached across requests.",
	"When a customer closes the chat window, the server stops generating so that nobody pays for text nobody reads.",
	"Support agents now quote the time to the first word rather than the total answer time when they report incidents.",
	"A spinner with no text for three seconds draws more complaints than a ten-second answer that starts at once.",
	"Customers who turned streaming off in their integration reported that every answer suddenly felt slow.",
	"The status page tracks the ninety-fifth percentile of first-word time, because an average hides the slow cases.",
}

// prompt is a request's prompt: the token ids the engine prefills and the
// messages the answer is composed from.
type prompt struct {
	ids []int
	// compose are the messages the composer answers from: the prompt's
	// own messages, except that repeated weeks of notes appear once (a
	// composer ranking sentences would otherwise repeat itself).
	compose []textmodel.Message
}

// buildPrompt makes a prompt of exactly n tokens (chat template included).
// session, a line unique to the run, opens the system message so that no
// two runs share a cached prefix. It fails when n is too small to hold the
// instruction, the session line and the question.
func buildPrompt(n int, session string) (prompt, error) {
	// The head ends without whitespace, which the template would trim;
	// the notes bring their own leading line break.
	head := session + "\n" + instructions + "\n\nSupport notes:"
	msgs := []textmodel.Message{
		{Role: textmodel.RoleSystem, Content: head},
		{Role: textmodel.RoleUser, Content: question},
	}
	base := textmodel.PromptTokens(msgs)
	room := n - len(base)
	if room < 0 {
		return prompt{}, fmt.Errorf("prompt of %d tokens is too short: the instruction and question alone take %d", n, len(base))
	}
	// The notes go at the end of the system message, just before its
	// end-of-turn marker. Each turn is encoded on its own between marker
	// tokens, so splicing note ids there yields exactly what the template
	// would produce for the longer message, and the count is exact.
	sysOnly := textmodel.PromptTokens(msgs[:1])
	eot := len(sysOnly) - len(textmodel.PromptTokens(nil))
	if base[eot] != textmodel.EndOfTurn {
		return prompt{}, fmt.Errorf("prompt: chat template layout changed (token %d is %d, want end of turn)", eot, base[eot])
	}
	notes := noteIDs(room)
	ids := make([]int, 0, n)
	ids = append(ids, base[:eot]...)
	ids = append(ids, notes...)
	ids = append(ids, base[eot:]...)

	week := textmodel.Encode(notesWeek(1))
	uniq := notes[:min(len(notes), len(week))]
	compose := slices.Clone(msgs)
	compose[0].Content = head + textmodel.Decode(uniq)
	return prompt{ids: ids, compose: compose}, nil
}

// noteIDs returns exactly n token ids of notes, week after week, cut at a
// token boundary.
func noteIDs(n int) []int {
	var ids []int
	for w := 1; len(ids) < n; w++ {
		ids = append(ids, textmodel.Encode(notesWeek(w))...)
	}
	return ids[:n]
}

// notesWeek is one week's notes, with a heading (which the composer skips,
// as it skips any line ending in a colon).
func notesWeek(w int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nWeek %d:\n", w)
	for _, s := range supportNotes {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.String()
}

// composeAnswer writes the answer of exactly n tokens: the composer's
// natural reply to the question, continued past its natural end (like
// vLLM's ignore_eos) so the length is what the learner chose.
func composeAnswer(p prompt, n int) textmodel.Answer {
	return textmodel.Compose(textmodel.ComposeRequest{
		Messages:     p.compose,
		MaxTokens:    n,
		ForcedTokens: n,
	})
}
