package moderation

import (
	"sort"
	"strings"
)

// ActionKind says what the driver of a Filter must do.
type ActionKind string

// Actions.
const (
	ActDeliver  ActionKind = "deliver"  // append Text to what the reader sees
	ActCheck    ActionKind = "check"    // run a check on Text, then call Checked(ID, …)
	ActCaught   ActionKind = "caught"   // a check failed; Result has spans in answer offsets
	ActReplace  ActionKind = "replace"  // replace everything shown with Text (the fallback)
	ActWithhold ActionKind = "withhold" // keep what is shown, append Text (the notice), release no more
	ActAbort    ActionKind = "abort"    // cancel generation (the engine request)
	ActFinish   ActionKind = "finish"   // delivery is over; Reason is the finish reason
)

// Action is one instruction from a Filter to its driver.
type Action struct {
	Kind ActionKind
	Text string
	// From and To are the token range [From, To) a Deliver releases or a
	// Check covers.
	From, To int
	// Offset is the byte offset of Text in the answer (Deliver, Check).
	Offset int
	ID     int     // check id (Check)
	Result *Result // Caught: the failed check, spans in answer offsets
	Reason string  // Finish
}

// Filter is one stream's moderation policy as a synchronous state machine:
// the driver feeds it tokens and check results and carries out the actions
// it returns. It does no I/O and keeps no clock, so it is exact to test and
// any driver (the lab, the pipeline, the OpenAI surface) can time it.
// At most one check is in flight at a time.
type Filter struct {
	cfg    FilterConfig
	pieces []string
	offs   []int // offs[i] is the byte offset of token i; offs[len] is the length
	text   strings.Builder

	released int   // tokens delivered
	checked  int   // tokens covered by passing checks
	inFlight int   // id of the running check, 0 when none
	checkTo  int   // end token of the running check
	relTo    int   // where a pass of the running check releases up to
	bounds   []int // token counts at which a sentence ends, increasing
	maybeEnd bool  // the last token ends in . ! or ? (confirmed by a space next)
	checkOff int   // byte offset of the running check's text
	nextID   int   // last check id handed out
	ended    bool  // generation is over
	blocked  bool  // a check failed
	finished bool  // Finish was returned
}

// NewFilter returns a filter for cfg.
func NewFilter(cfg FilterConfig) (*Filter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Fallback == "" {
		cfg.Fallback = DefaultFallback
	}
	if cfg.Notice == "" {
		cfg.Notice = DefaultNotice
	}
	return &Filter{cfg: cfg, offs: []int{0}}, nil
}

// Token takes the next generated token's text (possibly empty, for a token
// that ends inside a character).
func (f *Filter) Token(piece string) []Action {
	if f.ended {
		return nil
	}
	f.pieces = append(f.pieces, piece)
	f.text.WriteString(piece)
	f.offs = append(f.offs, f.text.Len())
	n := len(f.pieces)
	f.sentence(piece, n)
	if f.blocked {
		return nil
	}
	switch f.cfg.Policy {
	case NoModeration, StreamThenModerate:
		acts := []Action{f.deliver(n)}
		return append(acts, f.next()...)
	}
	return f.next()
}

// End marks the end of generation (naturally or after an abort).
func (f *Filter) End() []Action {
	if f.ended {
		return nil
	}
	f.ended = true
	return f.next()
}

// Checked takes the result of check id.
func (f *Filter) Checked(id int, r Result) []Action {
	if id == 0 || id != f.inFlight {
		return nil
	}
	f.inFlight = 0
	if r.Blocked() {
		return f.block(r)
	}
	switch f.cfg.Policy {
	case StreamThenModerate:
		f.checked = f.checkTo
	case ModerateThenSend:
		return append([]Action{f.deliver(f.checkTo)}, f.next()...)
	case BufferedWindow, AbortMidStream:
		f.checked = f.checkTo
		to := f.relTo
		var acts []Action
		if to > f.released {
			acts = append(acts, f.deliver(to))
		}
		return append(acts, f.next()...)
	}
	return f.next()
}

// block handles a failed check: spans move to answer offsets, and the
// policy decides what the reader is left with.
func (f *Filter) block(r Result) []Action {
	f.blocked = true
	spans := make([]Span, len(r.Spans))
	for i, s := range r.Spans {
		s.Start += f.checkOff
		s.End += f.checkOff
		spans[i] = s
	}
	r.Spans = spans
	acts := []Action{{Kind: ActCaught, Result: &r}}
	switch f.cfg.Policy {
	case AbortMidStream:
		acts = append(acts, Action{Kind: ActAbort}, Action{Kind: ActReplace, Text: f.cfg.Fallback})
	case BufferedWindow:
		acts = append(acts, Action{Kind: ActWithhold, Text: f.cfg.Notice})
	default:
		acts = append(acts, Action{Kind: ActReplace, Text: f.cfg.Fallback})
	}
	f.finished = true
	return append(acts, Action{Kind: ActFinish, Reason: FinishContentFilter})
}

// sentence records sentence boundaries as token n (with text piece)
// arrives: a line break ends a sentence at once; '.', '!' or '?' ends one
// when the next token starts with a space (so 4.50 and example.com do not).
func (f *Filter) sentence(piece string, n int) {
	if f.maybeEnd && piece != "" && (piece[0] == ' ' || piece[0] == '\n' || piece[0] == '\t') {
		f.bounds = append(f.bounds, n-1)
	}
	f.maybeEnd = false
	if strings.ContainsRune(piece, '\n') {
		if len(f.bounds) == 0 || f.bounds[len(f.bounds)-1] != n {
			f.bounds = append(f.bounds, n)
		}
		return
	}
	t := strings.TrimRight(piece, " \t")
	if t != "" {
		switch t[len(t)-1] {
		case '.', '!', '?':
			f.maybeEnd = true
		}
	}
}

// boundsAfter returns the sentence boundaries after token count from.
func (f *Filter) boundsAfter(from int) []int {
	i := sort.SearchInts(f.bounds, from+1)
	return f.bounds[i:]
}

// deliver releases tokens up to to.
func (f *Filter) deliver(to int) Action {
	a := Action{Kind: ActDeliver, From: f.released, To: to, Offset: f.offs[f.released],
		Text: f.text.String()[f.offs[f.released]:f.offs[to]]}
	f.released = to
	return a
}

// next starts the next check if one is due and finishes the stream when
// nothing is left to do.
func (f *Filter) next() []Action {
	if f.finished || f.blocked {
		return nil
	}
	n := len(f.pieces)
	if f.inFlight == 0 {
		from, due, relTo := 0, false, n
		switch f.cfg.Policy {
		case ModerateThenSend:
			due = f.ended && f.released < n
		case StreamThenModerate:
			if f.cfg.Unit == Sentences {
				after := f.boundsAfter(f.checked)
				due = len(after) >= f.cfg.Window || f.ended && n > f.checked
				before := f.bounds[:len(f.bounds)-len(after)]
				if k := len(before) - f.cfg.Overlap; k > 0 {
					from = before[k-1]
				}
			} else {
				from = max(0, f.checked-f.cfg.Overlap)
				due = n-f.checked >= f.cfg.Window || f.ended && n > f.checked
			}
		case BufferedWindow, AbortMidStream:
			// A check is due once Window new tokens (or sentences) follow
			// the last check. It reads them after the held-back overlap of
			// the previous window (the first window has none) and releases
			// all but its own last Overlap, which the next check re-reads.
			from = f.released
			if f.cfg.Unit == Sentences {
				due = len(f.boundsAfter(f.checked)) >= f.cfg.Window || f.ended && n > f.released
				if !f.ended {
					// Complete sentences not yet released, less the last
					// Overlap of them; an unfinished sentence waits too.
					after := f.boundsAfter(f.released)
					relTo = f.released
					if k := len(after) - f.cfg.Overlap; k > 0 {
						relTo = after[k-1]
					}
				}
			} else {
				due = n-f.checked >= f.cfg.Window || f.ended && n > f.released
				if !f.ended {
					relTo = max(f.released, n-f.cfg.Overlap)
				}
			}
		}
		if due {
			f.nextID++
			f.inFlight, f.checkTo, f.relTo, f.checkOff = f.nextID, n, relTo, f.offs[from]
			return []Action{{Kind: ActCheck, ID: f.nextID, From: from, To: n, Offset: f.offs[from],
				Text: f.text.String()[f.offs[from]:f.offs[n]]}}
		}
	}
	if f.ended && f.inFlight == 0 {
		f.finished = true
		return []Action{{Kind: ActFinish, Reason: FinishStop}}
	}
	return nil
}
