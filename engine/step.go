package engine

// Step runs one iteration the way nano-vllm's engine does: schedule a
// batch, run it (the cost model prices it and the clock advances by that
// much), postprocess the tokens it produced. Every token is stamped with
// the step's end. When nothing can run (idle, or a static batch still
// filling) the trace's Batch is empty and the clock does not move. The
// result is reused by the next call.
func (e *Engine) Step() *StepResult {
	e.resetStepResult()
	e.processAborts()
	shape, preempted := e.schedule()
	e.traceSchedule(shape, preempted)
	if len(e.sched) > 0 {
		e.run(shape, preempted)
		e.postprocess()
	}
	e.res.Trace.KVUsage = e.blocks.usage()
	return &e.res
}

// processAborts frees aborted requests before scheduling.
func (e *Engine) processAborts() {
	for _, s := range e.aborts {
		if !e.removeRunning(s) {
			e.waiting.remove(s)
		}
		e.finish(s, FinishAbort)
	}
	clear(e.aborts)
	e.aborts = e.aborts[:0]
}

// run is the forward pass: the cost model prices the scheduled batch and
// the clock moves to the step's end.
func (e *Engine) run(shape BatchShape, preempted int) {
	d := e.cost.StepTime(shape)
	e.now += d
	e.res.Trace.Duration = d
	e.stats.Steps++
	e.stats.Preemptions += int64(preempted)
	e.stats.BusyTime += d
	e.stats.LastStepDuration = d
}

// postprocess applies the step: computed tokens land in the cache, caught-up
// sequences sample their next token, finished ones free their blocks now.
func (e *Engine) postprocess() {
	finished := false
	for _, s := range e.sched {
		s.numComputedTokens += s.stepTokens
		if s.numHashedAdded < len(s.blockHashes) {
			e.blocks.register(s)
		}
		if s.numComputedTokens < s.numTokens() {
			continue // mid-prefill chunk: nothing to sample yet
		}
		e.sample(s)
		if s.numOutputTokens >= s.target {
			s.done = true
			finished = true
		}
	}
	if finished {
		e.finishDone()
	}
}

// sample emits s's next output token at the step's end.
func (e *Engine) sample(s *sequence) {
	i := s.numOutputTokens
	if i == 0 {
		s.timing.FirstToken = e.now
	}
	e.res.Tokens = append(e.res.Tokens, TokenEvent{ID: s.req.ID, Serial: s.serial, Index: i, Token: s.req.outputToken(i), Time: e.now})
	s.numOutputTokens++
	e.stats.GenerationTokens++
}

// finishDone removes the sequences that reached their target from the
// running list, keeping its order, and frees them.
func (e *Engine) finishDone() {
	n := 0
	for _, s := range e.running {
		if s.done {
			e.finish(s, s.finishReason())
			continue
		}
		e.running[n] = s
		n++
	}
	clear(e.running[n:])
	e.running = e.running[:n]
}

// finish frees s's blocks and reports it.
func (e *Engine) finish(s *sequence, reason string) {
	e.blocks.free(s)
	delete(e.byID, s.req.ID)
	s.timing.End = e.now
	e.stats.FinishedRequests++
	e.res.Finished = append(e.res.Finished, Finished{
		ID: s.req.ID, Serial: s.serial, FinishReason: reason, Usage: s.usage(),
		Timing: s.timing, Preemptions: s.preemptions,
	})
}

// resetStepResult empties the reused result and opens this step's trace.
func (e *Engine) resetStepResult() {
	r := &e.res
	r.Tokens, r.Finished = r.Tokens[:0], r.Finished[:0]
	r.Trace = StepTrace{Index: int(e.stats.Steps), Start: e.now, Batch: r.Trace.Batch[:0]}
}

// traceSchedule records what the scheduler decided: the queue lengths
// after scheduling and each scheduled sequence's share of the batch.
func (e *Engine) traceSchedule(shape BatchShape, preempted int) {
	t := &e.res.Trace
	t.Preemptions = preempted
	t.Running, t.Waiting = len(e.running), e.waiting.len()
	t.PrefillTokens, t.DecodeTokens = shape.PrefillTokens, shape.DecodeTokens
	for _, s := range e.sched {
		entry := BatchEntry{ID: s.req.ID}
		if s.stepDecode {
			entry.Decode = 1
		} else {
			entry.Prefill = s.stepTokens
		}
		t.Batch = append(t.Batch, entry)
	}
}
