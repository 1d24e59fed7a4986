package textmodel

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding is the BPE vocabulary the text model uses.
//
// cl100k_base rather than o200k_base: Llama 3's tokenizer is cl100k_base's
// 100k merges plus 28k extra tokens under the same split pattern, so English
// token counts from cl100k_base land within a few percent of the Llama models
// the engine serves; o200k_base is tuned for GPT-4o and is twice as large to
// load.
const Encoding = "cl100k_base"

// Chat-template marker tokens. They follow Llama 3's template but live in
// cl100k_base's reserved special range (100261–100275 are unused there), so
// each marker is one token, as in a real chat model, and can never collide
// with text. Encode never produces them: marker-like text in a message is
// encoded as plain text, so user content cannot forge a turn boundary.
const (
	BeginOfText = 100270 // <|begin_of_text|>
	StartHeader = 100271 // <|start_header_id|>
	EndHeader   = 100272 // <|end_header_id|>
	EndOfTurn   = 100273 // <|eot_id|>, the end-of-sequence token of a turn
)

// specialTokens renders the markers (and cl100k's own end-of-text) on decode.
var specialTokens = map[int]string{
	bpeTokens:   "<|endoftext|>",
	BeginOfText: "<|begin_of_text|>",
	StartHeader: "<|start_header_id|>",
	EndHeader:   "<|end_header_id|>",
	EndOfTurn:   "<|eot_id|>",
}

// bpeTokens is the number of ordinary cl100k_base ids (0–100256; 100256 is
// unassigned). Special tokens start above it.
const bpeTokens = 100257

// unknownToken is what an id outside the vocabulary decodes to: visible, valid
// UTF-8, and never a panic.
const unknownToken = "\uFFFD"

// Model is the text model: tokenizer, chat template and composer. The zero
// value is ready to use; the vocabulary and corpus load once, on first use,
// and a Model is safe for concurrent use. Share one Model (by pointer; it
// must not be copied): each carries its own caches.
type Model struct {
	once sync.Once
	st   *state
}

// state is everything a Model loads once and then only reads, plus two
// caches, which guard themselves.
type state struct {
	codec  tokenizer.Codec
	tokens []string                  // id -> raw token bytes; "" marks an unknown id
	cache  *boundedCache[[]int]      // string -> token ids
	parsed *boundedCache[[]sentence] // message content -> context sentences
	corpus *corpus
}

// shared backs the package-level functions. It is written once, by its
// sync.Once, and only read afterwards.
var shared Model

// Default returns the Model shared by the package-level functions.
func Default() *Model { return &shared }

func (m *Model) load() *state {
	m.once.Do(func() {
		st, err := newState()
		if err != nil {
			// The vocabulary is compiled into the tokenizer module, so this
			// is a broken build, not bad input.
			panic(fmt.Errorf("textmodel: load %s: %w", Encoding, err))
		}
		m.st = st
	})
	return m.st
}

func newState() (*state, error) {
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		return nil, fmt.Errorf("get codec: %w", err)
	}
	// The codec decodes only whole sequences and fails on any unknown id;
	// a per-id table lets Decode and Pieces render bad ids as U+FFFD and
	// work without allocating per token.
	tokens := make([]string, EndOfTurn+1)
	for id := range bpeTokens {
		s, err := codec.Decode([]uint{uint(id)})
		if err == nil {
			tokens[id] = s
		}
	}
	for id, s := range specialTokens {
		tokens[id] = s
	}
	if tokens[delToken] != "\x7f" {
		return nil, fmt.Errorf("token %d is %q, want DEL", delToken, tokens[delToken])
	}
	st := &state{codec: codec, tokens: tokens, cache: newBoundedCache[[]int](), parsed: newBoundedCache[[]sentence]()}
	st.corpus, err = loadCorpus(st)
	if err != nil {
		return nil, fmt.Errorf("load corpus: %w", err)
	}
	return st, nil
}

// Encode returns the BPE token ids of s. Invalid UTF-8 is first replaced,
// byte by byte, with U+FFFD, the same rule Decode applies.
func (m *Model) Encode(s string) []int {
	return append([]int(nil), m.load().encode(s)...)
}

// Count returns the number of tokens Encode(s) would return.
func (m *Model) Count(s string) int { return len(m.load().encode(s)) }

// Decode returns the text of ids, always valid UTF-8 and always equal to
// strings.Join(Pieces(ids), ""). Ids outside the vocabulary decode to
// U+FFFD; bytes that cannot form UTF-8 are replaced, one U+FFFD per byte;
// an unfinished character at the very end (ids cut by a token limit inside
// an emoji, say) is dropped, as a streaming detokenizer never shows it.
func (m *Model) Decode(ids []int) string {
	raw := m.load().raw(ids)
	if utf8.ValidString(raw) {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw) + 8)
	for pos := 0; pos < len(raw) && utf8.FullRuneInString(raw[pos:]); {
		pos += writeRune(&b, raw[pos:])
	}
	return b.String()
}

// Pieces returns one string per id, for streaming token by token: their
// concatenation is exactly Decode(ids), and every piece is valid UTF-8. A
// token that ends inside a multi-byte character (emoji, CJK and accented
// text are often split across byte-level tokens) gets an empty piece, and
// the token that completes the character carries all of it, as vLLM's
// incremental detokenizer does; a streamer may skip empty pieces.
func (m *Model) Pieces(ids []int) []string {
	st := m.load()
	return st.pieces(ids, st.raw(ids))
}

// encode tokenizes s, using the cache. The result is shared: never modify it.
func (st *state) encode(s string) []int {
	if s == "" {
		return nil
	}
	if ids, ok := st.cache.get(s); ok {
		return ids
	}
	valid := s
	if !utf8.ValidString(s) {
		valid = sanitize(s)
	}
	ids := st.tokenize(valid)
	st.cache.put(s, ids, len(ids))
	return ids
}

// delToken is cl100k_base's single-byte token for U+007F (DEL).
const delToken = 221

// tokenize runs the BPE codec on valid UTF-8. The codec's split pattern
// silently drops U+007F, the only rune it loses (checked over all of
// Unicode), so text is tokenized around each DEL, which becomes its
// single-byte token.
func (st *state) tokenize(s string) []int {
	var ids []int
	for {
		i := strings.IndexByte(s, 0x7f)
		if i < 0 {
			return st.appendCodec(ids, s)
		}
		ids = append(st.appendCodec(ids, s[:i]), delToken)
		s = s[i+1:]
	}
}

// appendCodec appends the codec's ids for s.
func (st *state) appendCodec(ids []int, s string) []int {
	if s == "" {
		return ids
	}
	// The split pattern has no match timeout, so the codec cannot fail on
	// valid UTF-8; were it to, keep what it tokenized rather than panic.
	uids, _, _ := st.codec.Encode(s)
	ids = slices.Grow(ids, len(uids))
	for _, id := range uids {
		ids = append(ids, int(id))
	}
	return ids
}

// bytesOf is the raw byte string of one token.
func (st *state) bytesOf(id int) string {
	if id < 0 || id >= len(st.tokens) || st.tokens[id] == "" {
		return unknownToken
	}
	return st.tokens[id]
}

// raw concatenates the tokens' bytes; it may be invalid UTF-8.
func (st *state) raw(ids []int) string {
	n := 0
	for _, id := range ids {
		n += len(st.bytesOf(id))
	}
	var b strings.Builder
	b.Grow(n)
	for _, id := range ids {
		b.WriteString(st.bytesOf(id))
	}
	return b.String()
}

// pieces splits raw (the bytes of ids) into one valid-UTF-8 piece per id.
func (st *state) pieces(ids []int, raw string) []string {
	out := make([]string, len(ids))
	if utf8.ValidString(raw) {
		// Fast path: pieces are substrings of raw, cut only at character
		// boundaries.
		start, end := 0, 0
		for i, id := range ids {
			end += len(st.bytesOf(id))
			if end == len(raw) || utf8.RuneStart(raw[end]) {
				out[i] = raw[start:end]
				start = end
			}
		}
		return out
	}
	// Slow path: decode rune by rune as bytes arrive, holding back a tail
	// that may still become a character (and dropping it if the ids end
	// there). The walk stops at the same positions as Decode's walk over
	// the whole string, so the pieces concatenate to Decode(ids) exactly.
	pos, end := 0, 0
	var b strings.Builder
	for i, id := range ids {
		end += len(st.bytesOf(id))
		b.Reset()
		for pos < end && utf8.FullRuneInString(raw[pos:end]) {
			pos += writeRune(&b, raw[pos:end])
		}
		out[i] = b.String()
	}
	return out
}

// sanitize replaces every byte of s that does not start a valid UTF-8
// sequence with U+FFFD, one per byte (Go's decoding rule), the same rule
// Decode applies, so garbage in Encode's input stays visible.
func sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for pos := 0; pos < len(s); {
		pos += writeRune(&b, s[pos:])
	}
	return b.String()
}

// writeRune writes the first character of s (or U+FFFD for an invalid byte)
// and returns how many bytes it consumed.
func writeRune(b *strings.Builder, s string) int {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n == 1 {
		b.WriteString(unknownToken)
		return 1
	}
	b.WriteString(s[:n])
	return n
}

// Encode returns the BPE token ids of s using the shared Model.
func Encode(s string) []int { return shared.Encode(s) }

// Decode returns the text of ids using the shared Model.
func Decode(ids []int) string { return shared.Decode(ids) }

// Count returns the number of tokens in s using the shared Model.
func Count(s string) int { return shared.Count(s) }

// Pieces returns one valid-UTF-8 piece per id using the shared Model.
func Pieces(ids []int) []string { return shared.Pieces(ids) }
