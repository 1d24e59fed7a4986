package engine

// blockManager is the paged KV cache: fixed blocks of BlockSize tokens, a
// free list kept in LRU order, reference counts, and a prefix cache mapping
// chained block hashes to blocks. Freed blocks keep their hash until they
// are reused, so a later request with the same prefix can revive them.
type blockManager struct {
	refCount []int32
	hash     []uint64 // 0: block holds no cached prefix
	// Free list as an intrusive doubly linked list: allocate pops the head
	// (least recently freed), free appends to the tail.
	prev, next []int32
	inFree     []bool
	head, tail int32
	numFree    int
	cached     *prefixTable
}

func newBlockManager(n int) *blockManager {
	b := &blockManager{
		refCount: make([]int32, n),
		hash:     make([]uint64, n),
		prev:     make([]int32, n),
		next:     make([]int32, n),
		inFree:   make([]bool, n),
		head:     -1,
		tail:     -1,
		cached:   newPrefixTable(n),
	}
	for i := range n {
		b.pushTail(int32(i))
	}
	return b
}

func (b *blockManager) total() int { return len(b.refCount) }

// usage is the fraction of blocks held by sequences; cached free blocks
// count as free, as in vLLM's gpu_cache_usage_perc.
func (b *blockManager) usage() float64 {
	return float64(b.total()-b.numFree) / float64(b.total())
}

func (b *blockManager) pushTail(id int32) {
	b.prev[id], b.next[id] = b.tail, -1
	if b.tail >= 0 {
		b.next[b.tail] = id
	} else {
		b.head = id
	}
	b.tail = id
	b.inFree[id] = true
	b.numFree++
}

func (b *blockManager) unlink(id int32) {
	p, n := b.prev[id], b.next[id]
	if p >= 0 {
		b.next[p] = n
	} else {
		b.head = n
	}
	if n >= 0 {
		b.prev[n] = p
	} else {
		b.tail = p
	}
	b.inFree[id] = false
	b.numFree--
}

// popFree takes the least recently freed block, evicting its cached hash.
func (b *blockManager) popFree() int32 {
	id := b.head
	b.unlink(id)
	if h := b.hash[id]; h != 0 {
		b.cached.deleteIf(h, id)
		b.hash[id] = 0
	}
	return id
}

// prefixHits counts the leading blocks of s's prompt found in the cache,
// leaving at least one prompt token to compute (its logits are needed), and
// how many of them sit on the free list.
func (b *blockManager) prefixHits(s *sequence) (hits, fromFree int) {
	limit := min(len(s.blockHashes), (s.numPromptTokens-1)/BlockSize)
	for hits < limit {
		id, ok := b.cached.get(s.blockHashes[hits])
		if !ok {
			break
		}
		if b.inFree[id] {
			fromFree++
		}
		hits++
	}
	return hits, fromFree
}

// takePrefix gives s the first hits cached blocks of its prompt; the
// caller checked with prefixHits that they fit.
func (b *blockManager) takePrefix(s *sequence, hits int) {
	for i := range hits {
		id, _ := b.cached.get(s.blockHashes[i])
		if b.inFree[id] {
			b.unlink(id)
		}
		b.refCount[id]++
		s.blockTable = append(s.blockTable, id)
	}
	s.numHashedAdded = hits
}

// need is how many more blocks s needs to hold numTokens tokens.
func (b *blockManager) need(s *sequence, numTokens int) int {
	return max(0, (numTokens+BlockSize-1)/BlockSize-len(s.blockTable))
}

// grow appends n fresh blocks to s; the caller checked numFree.
func (b *blockManager) grow(s *sequence, n int) {
	for range n {
		id := b.popFree()
		b.refCount[id] = 1
		s.blockTable = append(s.blockTable, id)
	}
}

// register publishes s's newly completed prompt blocks in the prefix cache.
func (b *blockManager) register(s *sequence) {
	full := min(s.numComputedTokens, s.numPromptTokens) / BlockSize
	for i := s.numHashedAdded; i < full && i < len(s.blockHashes); i++ {
		h, id := s.blockHashes[i], s.blockTable[i]
		if b.hash[id] == 0 && b.cached.putIfAbsent(h, id) {
			b.hash[id] = h
		}
	}
	if full > s.numHashedAdded {
		s.numHashedAdded = full
	}
}

// free releases s's blocks, tail first, so a prefix's later blocks are
// evicted before its earlier ones (vLLM frees in reverse order too).
func (b *blockManager) free(s *sequence) {
	for i := len(s.blockTable) - 1; i >= 0; i-- {
		id := s.blockTable[i]
		b.refCount[id]--
		if b.refCount[id] == 0 {
			b.pushTail(id)
		}
	}
	s.blockTable = s.blockTable[:0]
	s.numHashedAdded = 0
}

// hashBlocks returns the chained hashes of a prompt's full blocks: each
// block's hash covers its tokens and its parent's hash, so equal hashes
// mean equal prefixes.
func hashBlocks(tokens []int) []uint64 {
	n := len(tokens) / BlockSize
	if n == 0 {
		return nil
	}
	out := make([]uint64, n)
	h := uint64(0x9e3779b97f4a7c15)
	for i := range n {
		blk := tokens[i*BlockSize : (i+1)*BlockSize : (i+1)*BlockSize]
		for j := 0; j < BlockSize; j += 2 {
			// Two token ids per multiply; ids above 2^32 still mix in.
			w := uint64(blk[j]) ^ uint64(blk[j+1])<<32 ^ uint64(blk[j+1])>>32
			h = (h ^ w) * 0xbf58476d1ce4e5b9
			h ^= h >> 29
		}
		if h == 0 {
			h = 1
		}
		out[i] = h
	}
	return out
}
