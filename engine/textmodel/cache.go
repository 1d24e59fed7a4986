package textmodel

import (
	"strings"
	"sync"
)

// Cache bounds: a simulated workload repeats the same system prompts,
// retrieved chunks and corpus sentences thousands of times, and BPE costs
// about 1.6 µs a token, so encoded strings are kept. When either bound is
// reached the cache starts over; that is cheaper than tracking recency and
// the working set of a lab is far below the bounds.
const (
	cacheMaxEntries = 1 << 14
	cacheMaxTokens  = 1 << 21 // ~16 MiB of ids
	cacheMaxKey     = 1 << 16 // longer strings are encoded every time
)

// encodeCache maps strings to their token ids. Values are shared and must
// not be modified.
type encodeCache struct {
	mu     sync.Mutex
	m      map[string][]int
	tokens int
}

func newEncodeCache() *encodeCache {
	return &encodeCache{m: make(map[string][]int)}
}

func (c *encodeCache) get(s string) ([]int, bool) {
	c.mu.Lock()
	ids, ok := c.m[s]
	c.mu.Unlock()
	return ids, ok
}

func (c *encodeCache) put(s string, ids []int) {
	if len(s) > cacheMaxKey {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= cacheMaxEntries || c.tokens+len(ids) > cacheMaxTokens {
		c.m = make(map[string][]int)
		c.tokens = 0
	}
	// Clone the key: s is often a substring of a large prompt, which the
	// cache would otherwise keep alive.
	c.m[strings.Clone(s)] = ids
	c.tokens += len(ids)
}
