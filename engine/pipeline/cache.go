package pipeline

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// Cache is an exact-match response cache: the same tier and the same
// assembled prompt replay the stored answer instead of calling a model.
// Only complete answers are stored. Safe for concurrent use; the oldest
// entry goes when it is full.
type Cache struct {
	mu      sync.Mutex
	max     int
	entries map[[32]byte]cachedAnswer
	order   [][32]byte
}

type cachedAnswer struct {
	tier   string
	deltas []cachedDelta
	usage  Usage
	finish string
}

type cachedDelta struct {
	text   string
	tokens int
}

// NewCache holds up to max answers (at least 1).
func NewCache(size int) *Cache {
	return &Cache{max: max(size, 1), entries: make(map[[32]byte]cachedAnswer)}
}

// Len is the number of stored answers.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// cacheKey hashes everything that decides the answer: tier, length limits
// and the prompt, message by message with lengths so no two prompts collide
// by concatenation.
func cacheKey(tier string, req ProviderRequest, msgs []textmodel.Message) [32]byte {
	h := sha256.New()
	var n [8]byte
	put := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	put(tier)
	binary.LittleEndian.PutUint64(n[:], uint64(req.MaxTokens)<<32|uint64(req.ExactTokens))
	h.Write(n[:])
	for _, m := range msgs {
		put(m.Role)
		put(m.Content)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (c *Cache) get(k [32]byte) (cachedAnswer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.entries[k]
	return a, ok
}

func (c *Cache) put(k [32]byte, a cachedAnswer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; ok {
		c.entries[k] = a
		return
	}
	for len(c.entries) >= c.max && len(c.order) > 0 {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[k] = a
	c.order = append(c.order, k)
}
