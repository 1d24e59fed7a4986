package engine

import "math"

// schedule picks this step's work into e.sched and returns the batch shape
// and the number of sequences preempted to make room.
func (e *Engine) schedule() (BatchShape, int) {
	e.sched = e.sched[:0]
	var shape BatchShape
	preempted := 0
	if e.cfg.Policy == Continuous {
		preempted = e.scheduleContinuous(&shape)
	} else {
		preempted = e.scheduleStatic(&shape)
	}
	return shape, preempted
}

// scheduleContinuous is vLLM v1's loop: running sequences first, in order,
// each taking what it needs from the token budget (a decode needs one
// token, a chunked prefill up to the rest of the budget), preempting the
// newest running sequence when blocks run out; then waiting requests in
// FCFS order while seats, budget and blocks last and nothing was preempted.
// With multi-step scheduling a decode-only batch opens a round: the next
// NumSchedulerSteps-1 steps rerun the running sequences without looking at
// the queue.
func (e *Engine) scheduleContinuous(shape *BatchShape) int {
	if e.roundLeft > 0 && len(e.running) > 0 {
		e.roundLeft--
		return e.scheduleRunning(shape, e.cfg.MaxNumBatchedTokens)
	}
	e.roundLeft = 0
	preempted := e.scheduleRunning(shape, e.cfg.MaxNumBatchedTokens)
	if preempted > 0 {
		return preempted
	}
	budget := e.cfg.MaxNumBatchedTokens - shape.Tokens()
	for e.waiting.len() > 0 && len(e.running) < e.cfg.MaxNumSeqs && budget > 0 {
		s := e.waiting.at(0)
		k, ok := e.admit(s, budget, e.cfg.ChunkedPrefill)
		if !ok {
			break
		}
		e.waiting.popFront()
		e.running = append(e.running, s)
		e.addToBatch(s, k, shape)
		budget -= k
	}
	if e.cfg.NumSchedulerSteps > 1 && shape.PrefillTokens == 0 && shape.DecodeTokens > 0 {
		e.roundLeft = e.cfg.NumSchedulerSteps - 1
	}
	return preempted
}

// scheduleRunning schedules the running sequences in order within budget
// and returns how many it preempted to find blocks.
func (e *Engine) scheduleRunning(shape *BatchShape, budget int) int {
	preempted := 0
	for i := 0; i < len(e.running) && budget > 0; i++ {
		s := e.running[i]
		k := s.numUncomputed()
		if k > budget {
			if !e.cfg.ChunkedPrefill {
				continue
			}
			k = budget
		}
		need := e.blocks.need(s, s.numComputedTokens+k)
		n, ok := e.makeRoom(s, need)
		preempted += n
		if !ok || k == 0 {
			break
		}
		e.blocks.grow(s, need)
		e.addToBatch(s, k, shape)
		budget -= k
	}
	return preempted
}

// noTokenBudget lets admit take a whole prompt: the static policy prefills
// its batch in one step, however long the prompts are.
const noTokenBudget = math.MaxInt

// scheduleStatic runs one batch to completion: when no batch is running it
// forms one of up to BatchSize waiting requests (once enough have arrived
// or the oldest waited BatchWait) and prefills them all in one step; then
// every step decodes the whole batch. Finished sequences leave the running
// list but their seats stay empty until the batch ends.
func (e *Engine) scheduleStatic(shape *BatchShape) int {
	if len(e.running) == 0 {
		n := e.waiting.len()
		if n == 0 {
			return 0
		}
		if n < e.cfg.BatchSize && e.now < e.waiting.at(0).timing.Arrival+e.cfg.BatchWait {
			return 0
		}
		for e.waiting.len() > 0 && len(e.running) < e.cfg.BatchSize {
			s := e.waiting.at(0)
			k, ok := e.admit(s, noTokenBudget, false)
			if !ok {
				break
			}
			e.waiting.popFront()
			e.running = append(e.running, s)
			e.addToBatch(s, k, shape)
		}
		return 0
	}
	preempted := 0
	for i := 0; i < len(e.running); i++ {
		s := e.running[i]
		k := s.numUncomputed()
		need := e.blocks.need(s, s.numComputedTokens+k)
		n, ok := e.makeRoom(s, need)
		preempted += n
		if !ok || k == 0 {
			break
		}
		e.blocks.grow(s, need)
		e.addToBatch(s, k, shape)
	}
	return preempted
}

// admit looks up a waiting sequence's cached prefix and reserves blocks for
// its first chunk of at most budget tokens (the whole rest when chunking is
// off). It changes nothing and returns false when the chunk does not fit.
func (e *Engine) admit(s *sequence, budget int, chunked bool) (int, bool) {
	hits, fromFree := 0, 0
	if e.cfg.PrefixCaching {
		hits, fromFree = e.blocks.prefixHits(s)
	}
	cached := hits * BlockSize
	k := s.numTokens() - cached
	if k > budget {
		if !chunked {
			return 0, false
		}
		k = budget
	}
	need := (cached+k+BlockSize-1)/BlockSize - hits
	if need+fromFree > e.blocks.numFree {
		return 0, false
	}
	e.blocks.takePrefix(s, hits)
	e.blocks.grow(s, need)
	s.numComputedTokens, s.numCachedTokens = cached, cached
	if e.cfg.PrefixCaching {
		e.stats.PrefixCacheQueries += int64(s.numPromptTokens)
		e.stats.PrefixCacheHits += int64(cached)
	}
	return k, true
}

// makeRoom preempts the newest running sequences until need blocks are free
// for s. It returns how many it preempted, and false when s itself had to
// go (it was the newest).
func (e *Engine) makeRoom(s *sequence, need int) (preempted int, ok bool) {
	for need > e.blocks.numFree {
		victim := e.running[len(e.running)-1]
		e.preempt(victim)
		preempted++
		if victim == s {
			return preempted, false
		}
	}
	return preempted, true
}

// preempt evicts a running sequence by recompute: it drops its blocks and
// goes back to the front of the queue, keeping its generated tokens.
func (e *Engine) preempt(s *sequence) {
	e.removeRunning(s)
	e.blocks.free(s)
	s.numComputedTokens, s.numCachedTokens = 0, 0
	s.preemptions++
	e.waiting.pushFront(s)
}

// addToBatch puts k tokens of s into this step's batch and its shape.
func (e *Engine) addToBatch(s *sequence, k int, shape *BatchShape) {
	s.stepTokens = k
	s.stepDecode = s.isDecoding()
	if !s.started {
		s.started = true
		s.timing.FirstScheduled = e.now
		e.stats.PromptTokens += int64(s.numPromptTokens)
	}
	c := s.numComputedTokens
	shape.NumSeqs++
	shape.KVReadTokens += int64(c)
	shape.AttnPairs += float64(k)*float64(c) + float64(k)*float64(k+1)/2
	if s.stepDecode {
		shape.DecodeTokens++
	} else {
		shape.PrefillTokens += k
	}
	if c+k == s.numTokens() {
		shape.SampledTokens++
	}
	e.sched = append(e.sched, s)
}
