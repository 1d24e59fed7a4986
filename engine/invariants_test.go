package engine

import (
	"errors"
	"fmt"
)

// checkInvariants verifies the KV cache and queues after a step: every
// block is either free or referenced, reference counts match the block
// tables, no sequence holds a block twice, nothing is over-allocated, and
// requests that finished in the step hold nothing.
func checkInvariants(e *Engine, res *StepResult) error {
	b := e.blocks
	n := b.total()
	// Free list: walk it and compare with the flags and the count.
	seen, walked := make([]bool, n), 0
	prev := int32(-1)
	for id := b.head; id >= 0; id = b.next[id] {
		if seen[id] {
			return fmt.Errorf("free list loops at block %d", id)
		}
		if b.prev[id] != prev {
			return fmt.Errorf("free list back link of block %d broken", id)
		}
		seen[id], prev = true, id
		walked++
	}
	if walked != b.numFree {
		return fmt.Errorf("free list holds %d blocks, numFree says %d", walked, b.numFree)
	}
	refs := make([]int32, n)
	live := 0
	count := func(s *sequence) error {
		own := make(map[int32]bool, len(s.blockTable))
		for _, id := range s.blockTable {
			if own[id] {
				return fmt.Errorf("request %s holds block %d twice", s.req.ID, id)
			}
			own[id] = true
			refs[id]++
		}
		if want := (s.numComputedTokens + BlockSize - 1) / BlockSize; len(s.blockTable) != want {
			return fmt.Errorf("request %s holds %d blocks for %d computed tokens (want %d)", s.req.ID, len(s.blockTable), s.numComputedTokens, want)
		}
		if s.numComputedTokens > s.numTokens() || s.numOutputTokens > s.target {
			return fmt.Errorf("request %s over-ran: computed %d of %d tokens, output %d of %d", s.req.ID, s.numComputedTokens, s.numTokens(), s.numOutputTokens, s.target)
		}
		live++
		return nil
	}
	for _, s := range e.running {
		if err := count(s); err != nil {
			return err
		}
	}
	for i := range e.waiting.len() {
		s := e.waiting.at(i)
		if len(s.blockTable) != 0 {
			return fmt.Errorf("waiting request %s holds %d blocks", s.req.ID, len(s.blockTable))
		}
		if err := count(s); err != nil {
			return err
		}
	}
	if live != len(e.byID) {
		return fmt.Errorf("%d live sequences but %d ids registered", live, len(e.byID))
	}
	used := 0
	for id := range n {
		if refs[id] != b.refCount[id] {
			return fmt.Errorf("block %d: refcount %d, held by %d", id, b.refCount[id], refs[id])
		}
		if (b.refCount[id] == 0) != seen[id] {
			return fmt.Errorf("block %d: refcount %d but free=%v", id, b.refCount[id], seen[id])
		}
		if refs[id] > 1 && b.hash[id] == 0 {
			return fmt.Errorf("block %d shared by %d requests but not a cached prefix block", id, refs[id])
		}
		if refs[id] > 0 {
			used++
		}
	}
	if used+b.numFree != n {
		return fmt.Errorf("used %d + free %d != total %d", used, b.numFree, n)
	}
	var bad error
	entries := 0
	b.cached.each(func(h uint64, id int32) {
		entries++
		if b.hash[id] != h && bad == nil {
			bad = fmt.Errorf("prefix cache maps %x to block %d holding %x", h, id, b.hash[id])
		}
	})
	if bad != nil {
		return bad
	}
	if entries != b.cached.n {
		return fmt.Errorf("prefix table counts %d entries, holds %d", b.cached.n, entries)
	}
	for id := range n {
		if h := b.hash[id]; h != 0 {
			if got, ok := b.cached.get(h); !ok || got != int32(id) {
				return fmt.Errorf("block %d holds hash %x the table does not map to it", id, h)
			}
		}
	}
	for _, f := range res.Finished {
		if _, ok := e.byID[f.ID]; ok {
			return fmt.Errorf("finished request %s still registered", f.ID)
		}
	}
	if res.Trace.Running > e.cfg.MaxNumSeqs && e.cfg.Policy == Continuous {
		return errors.New("running exceeds max_num_seqs")
	}
	return nil
}
