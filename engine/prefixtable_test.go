package engine

import (
	"math/rand/v2"
	"testing"
)

// TestPrefixTableMatchesMap drives the table and a Go map with the same
// random operations, including deletions that exercise backward shifts.
func TestPrefixTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tab := newPrefixTable(64)
	ref := map[uint64]int32{}
	for i := range 20000 {
		h := uint64(r.IntN(200)) + 1 // small key space: many collisions
		if r.IntN(8) == 0 {
			h |= uint64(r.IntN(4)) << 60
		}
		id := int32(r.IntN(64))
		switch r.IntN(3) {
		case 0:
			if len(ref) < 64 || ref[h] != 0 {
				_, had := ref[h]
				if got := tab.putIfAbsent(h, id); got == had {
					t.Fatalf("op %d: putIfAbsent(%d) = %v with key present=%v", i, h, got, had)
				}
				if !had {
					ref[h] = id
				}
			}
		case 1:
			if v, ok := ref[h]; ok && (v == id || r.IntN(2) == 0) {
				tab.deleteIf(h, v)
				delete(ref, h)
			} else {
				tab.deleteIf(h, id) // absent or wrong id: a no-op unless it matches
				if ok && v == id {
					delete(ref, h)
				}
			}
		}
		for k, v := range ref {
			if got, ok := tab.get(k); !ok || got != v {
				t.Fatalf("op %d: get(%d) = %d,%v want %d", i, k, got, ok, v)
			}
		}
		if tab.n != len(ref) {
			t.Fatalf("op %d: table holds %d, map %d", i, tab.n, len(ref))
		}
	}
}
