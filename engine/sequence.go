package engine

// sequence is one request's state inside the engine, kept as counters with
// derived properties (nano-vllm style) so a step touches no maps.
type sequence struct {
	req    Request
	serial uint64
	target int // output tokens it will produce in total

	numPromptTokens   int
	numOutputTokens   int // generated so far
	numComputedTokens int // tokens whose KV is in the cache
	numCachedTokens   int // prompt tokens served by the prefix cache

	blockTable     []int32
	blockHashes    []uint64 // chained hashes of full prompt blocks
	numHashedAdded int      // leading blocks already registered in the cache

	timing      Timing
	started     bool
	preemptions int
	aborted     bool // Abort called; freed at the next step
	done        bool // reached its target; freed in this step

	// Per-step scratch, valid between schedule and postprocess.
	stepTokens int
	stepDecode bool
}

// numTokens is prompt plus generated tokens.
func (s *sequence) numTokens() int { return s.numPromptTokens + s.numOutputTokens }

// numUncomputed is what the next steps must compute before sampling.
func (s *sequence) numUncomputed() int { return s.numTokens() - s.numComputedTokens }

// isDecoding: only the last sampled token is missing from the cache.
func (s *sequence) isDecoding() bool { return s.numOutputTokens > 0 && s.numUncomputed() == 1 }

// finishReason is why the sequence ends once it reached its target.
func (s *sequence) finishReason() string {
	if s.req.IgnoreEOS || len(s.req.OutputTokens) > s.target {
		return FinishLength
	}
	return FinishStop
}

// usage reports the request's token counts.
func (s *sequence) usage() Usage {
	return Usage{PromptTokens: s.numPromptTokens, CompletionTokens: s.numOutputTokens, CachedTokens: s.numCachedTokens}
}

// seqQueue is a FIFO of waiting sequences that also allows pushing to the
// front (preempted sequences go first) without allocating per operation.
type seqQueue struct {
	items []*sequence
	head  int
}

func (q *seqQueue) len() int             { return len(q.items) - q.head }
func (q *seqQueue) at(i int) *sequence   { return q.items[q.head+i] }
func (q *seqQueue) pushBack(s *sequence) { q.items = append(q.items, s) }

func (q *seqQueue) popFront() *sequence {
	s := q.items[q.head]
	q.items[q.head] = nil
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && q.head*2 > len(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	return s
}

func (q *seqQueue) pushFront(s *sequence) {
	if q.head > 0 {
		q.head--
		q.items[q.head] = s
		return
	}
	q.items = append(q.items, nil)
	copy(q.items[1:], q.items)
	q.items[0] = s
}

// remove deletes s if present.
func (q *seqQueue) remove(s *sequence) bool {
	for i := q.head; i < len(q.items); i++ {
		if q.items[i] == s {
			copy(q.items[i:], q.items[i+1:])
			q.items[len(q.items)-1] = nil
			q.items = q.items[:len(q.items)-1]
			return true
		}
	}
	return false
}
