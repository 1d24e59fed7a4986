package textmodel

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// Finish reasons, as in OpenAI's API.
const (
	FinishStop   = "stop"   // the answer ended naturally or at a stop string
	FinishLength = "length" // cut by MaxTokens, or exactly ForcedTokens long
)

// ComposeRequest is what the composer needs from a chat request.
type ComposeRequest struct {
	Messages []Message
	// MaxTokens caps the answer; an answer cut by it finishes "length".
	// Zero or less means no cap beyond the answer's natural length.
	MaxTokens int
	// Stop strings end the answer just before the first occurrence of any
	// of them (finish "stop"). Empty strings are ignored.
	Stop []string
	// Seed makes sampling repeatable: the same request and seed always
	// give the same answer.
	Seed int64
	// Temperature above 0 varies which sentences are chosen and their
	// order (more at higher values); 0 or less is greedy and ignores Seed.
	Temperature float64
	// ForcedTokens, when above 0, makes the answer exactly that many
	// tokens (capped by MaxTokens when that is set), like vLLM's
	// ignore_eos with min_tokens = max_tokens: sentences keep coming past
	// the natural end, stop strings are ignored, and it finishes "length".
	ForcedTokens int
	// OffTopic, when set, is the whole answer to a question that nothing
	// in the context bears on (no sentence shares a word with it, or there
	// is no context), as a grounded assistant declines instead of padding
	// with unrelated sentences. It never applies with ForcedTokens.
	OffTopic string
}

// Answer is a composed completion, ready to stream token by token:
// len(Pieces) == len(Tokens), strings.Join(Pieces, "") == Text, and
// Decode(Tokens) == Text.
type Answer struct {
	Tokens       []int
	Pieces       []string
	Text         string
	FinishReason string
}

// Natural answer length: an opener and a few sentences, like a chat reply
// of roughly 50–200 tokens.
const (
	naturalSentences = 4   // at temperature 0; 3–5 when sampling
	minSentences     = 2   // taken even when fewer sentences match the question
	naturalMaxTokens = 256 // no further sentence once the answer is this long
)

// Compose writes an answer to the last user message. Sentences come from the
// request's context (system, tool and earlier user messages; assistant turns
// and instructions to the model are not reused) ranked by the question words
// they share, rarer words counting more; with no usable context they come
// from the bundled corpus. The natural answer is a short opener and the best
// few sentences, ending at a sentence boundary. Bad values never panic:
// negative lengths count as 0, NaN and infinite temperatures as 0.
func (m *Model) Compose(req ComposeRequest) Answer {
	st := m.load()
	question, context := st.splitConversation(req.Messages)
	qwords := contentWords(question)

	var rng *rand.Rand
	temp := req.Temperature
	if temp > 0 && !math.IsInf(temp, 0) {
		rng = rand.New(rand.NewPCG(uint64(req.Seed), 0x9e3779b97f4a7c15))
	} else {
		temp = 0
	}

	pool := rank(context, qwords, temp, rng)
	if req.OffTopic != "" && req.ForcedTokens <= 0 && len(qwords) > 0 && relevant(pool) == 0 {
		c := composer{st: st}
		c.add(req.OffTopic, false)
		return c.finish(c.ids, req)
	}
	openers := contextOpeners
	fromCorpus := len(pool) == 0
	if fromCorpus {
		pool = onTopic(rank(st.corpus.sentences, qwords, temp, rng))
		openers = corpusOpeners
	}

	k := naturalSentences
	opener := openers[hashString(question)%uint64(len(openers))]
	if rng != nil {
		k = naturalSentences - 1 + rng.IntN(3)
		opener = openers[rng.IntN(len(openers))]
	}
	k = min(k, max(minSentences, relevant(pool)), len(pool))

	c := composer{st: st}
	c.add(opener, false)
	for i, s := range pool[:k] {
		if i > 0 && len(c.ids) >= naturalMaxTokens {
			k = i
			break
		}
		c.addSentence(s)
	}

	if req.ForcedTokens > 0 {
		n := req.ForcedTokens
		if req.MaxTokens > 0 {
			n = min(n, req.MaxTokens)
		}
		fallback := pool
		if !fromCorpus {
			fallback = onTopic(rank(st.corpus.sentences, qwords, 0, nil))
		}
		c.extend(n, pool[k:], fallback, rng)
		return c.answer(c.ids[:n], FinishLength)
	}

	return c.finish(c.ids, req)
}

// finish applies the request's stop strings and token cap to a natural
// answer.
func (c *composer) finish(ids []int, req ComposeRequest) Answer {
	finish := FinishStop
	if cut, ok := stopAt(c.st.raw(ids), req.Stop); ok {
		ids = slices.Clone(c.st.encode(cut))
	}
	if req.MaxTokens > 0 && len(ids) > req.MaxTokens {
		ids, finish = ids[:req.MaxTokens], FinishLength
	}
	return c.answer(ids, finish)
}

// Compose writes an answer using the shared Model.
func Compose(req ComposeRequest) Answer { return shared.Compose(req) }

// splitConversation returns the question (the last user message) and the
// context sentences from every other non-assistant message. When the
// question is the only material, a multi-paragraph question is read as
// context followed by its last paragraph, the usual shape of a prompt that
// inlines retrieved text.
func (st *state) splitConversation(msgs []Message) (string, []sentence) {
	qi := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if strings.EqualFold(strings.TrimSpace(msgs[i].Role), RoleUser) {
			qi = i
			break
		}
	}
	if qi < 0 && len(msgs) > 0 {
		qi = len(msgs) - 1
	}
	var context []sentence
	for i, msg := range msgs {
		if i == qi || strings.EqualFold(strings.TrimSpace(msg.Role), RoleAssistant) {
			continue
		}
		context = st.appendContext(context, msg.Content)
	}
	if qi < 0 {
		return "", context
	}
	question := strings.TrimSpace(msgs[qi].Content)
	if len(context) == 0 {
		if i := strings.LastIndex(question, "\n\n"); i >= 0 {
			context = st.appendContext(context, question[:i])
			question = strings.TrimSpace(question[i:])
		}
	}
	return question, context
}

// appendContext adds the readable, non-instruction sentences of text,
// parsing each distinct text once.
func (st *state) appendContext(dst []sentence, text string) []sentence {
	if parsed, ok := st.parsed.get(text); ok {
		return append(dst, parsed...)
	}
	var parsed []sentence
	for _, s := range splitSentences(text) {
		if !isInstruction(s.text) {
			parsed = append(parsed, s)
		}
	}
	st.parsed.put(text, parsed, len(parsed)+1)
	return append(dst, parsed...)
}

// composer accumulates an answer's token ids segment by segment. Each
// sentence is encoded with its leading space, which BPE keeps attached to
// the next word, so concatenated segment ids equal the ids of the joined
// text.
type composer struct {
	st  *state
	ids []int
}

func (c *composer) add(text string, space bool) {
	if space {
		text = " " + text
	}
	c.ids = append(c.ids, c.st.encode(text)...)
}

func (c *composer) addSentence(s scored) { c.add(s.text, true) }

// extend appends sentences until there are at least n ids: first the rest
// of the ranked pool, then the corpus in corpusOrder (ranked by the
// question, its best section first), then further passes over the corpus
// (reshuffled when sampling), so any length can be reached.
func (c *composer) extend(n int, rest, corpusOrder []scored, rng *rand.Rand) {
	for _, s := range rest {
		if len(c.ids) >= n {
			return
		}
		c.addSentence(s)
	}
	corpus := c.st.corpus
	order := make([]int, len(corpusOrder))
	for i, s := range corpusOrder {
		order[i] = s.index
	}
	for len(c.ids) < n {
		if rng != nil {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for _, i := range order {
			if len(c.ids) >= n {
				return
			}
			c.ids = append(c.ids, corpus.ids[i]...)
		}
	}
}

// answer builds the final Answer from ids, copying them so callers own
// their slices.
func (c *composer) answer(ids []int, finish string) Answer {
	ids = slices.Clone(ids)
	raw := c.st.raw(ids)
	pieces := c.st.pieces(ids, raw)
	text := raw
	if !utf8.ValidString(raw) {
		text = strings.Join(pieces, "")
	}
	return Answer{Tokens: ids, Pieces: pieces, Text: text, FinishReason: finish}
}

// stopAt returns text cut before the earliest occurrence of any stop string.
func stopAt(text string, stop []string) (string, bool) {
	cut := -1
	for _, s := range stop {
		if s == "" {
			continue
		}
		if i := strings.Index(text, s); i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut < 0 {
		return text, false
	}
	return text[:cut], true
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
