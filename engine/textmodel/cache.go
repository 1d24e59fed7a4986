package textmodel

import (
	"strings"
	"sync"
)

// Cache bounds. A simulated workload repeats the same system prompts,
// retrieved chunks and corpus sentences thousands of times, and BPE costs
// about a microsecond and a half a token, so encoded strings and parsed
// messages are kept. When a bound is reached the cache starts over: cheaper
// than tracking recency, and a lab's working set is far below the bounds.
const (
	cacheMaxEntries = 1 << 14
	cacheMaxCost    = 1 << 21 // tokens or sentences; ~16 MiB of ids at most
	cacheMaxKey     = 1 << 16 // longer strings are recomputed every time
)

// boundedCache maps strings to values derived from them. Values are shared
// between callers and must not be modified.
type boundedCache[V any] struct {
	mu   sync.Mutex
	m    map[string]V
	cost int
}

func newBoundedCache[V any]() *boundedCache[V] {
	return &boundedCache[V]{m: make(map[string]V)}
}

func (c *boundedCache[V]) get(key string) (V, bool) {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	return v, ok
}

// put stores v under key; cost is its size in the cache's unit.
func (c *boundedCache[V]) put(key string, v V, cost int) {
	if len(key) > cacheMaxKey {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= cacheMaxEntries || c.cost+cost > cacheMaxCost {
		c.m = make(map[string]V)
		c.cost = 0
	}
	// Clone the key: it is often a substring of a large prompt, which the
	// cache would otherwise keep alive.
	c.m[strings.Clone(key)] = v
	c.cost += cost
}
