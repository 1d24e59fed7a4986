package engine

// prefixTable maps chained block hashes to cached blocks. It is an
// open-addressing table with linear probing, sized once for the engine's
// block count (each block holds at most one hash, so the load stays at or
// below one half), because a Go map cost a third of simulation time.
// Hash 0 marks an empty slot; hashBlocks never produces it.
type prefixTable struct {
	keys []uint64
	vals []int32
	mask uint64
	n    int
}

func newPrefixTable(blocks int) *prefixTable {
	size := 16
	for size < 2*blocks {
		size <<= 1
	}
	return &prefixTable{keys: make([]uint64, size), vals: make([]int32, size), mask: uint64(size - 1)}
}

// home is a key's preferred slot; hashes are already well mixed.
func (t *prefixTable) home(h uint64) uint64 { return (h ^ h>>32) & t.mask }

func (t *prefixTable) get(h uint64) (int32, bool) {
	for i := t.home(h); t.keys[i] != 0; i = (i + 1) & t.mask {
		if t.keys[i] == h {
			return t.vals[i], true
		}
	}
	return -1, false
}

// putIfAbsent stores h → id unless h is present; it reports whether it stored.
func (t *prefixTable) putIfAbsent(h uint64, id int32) bool {
	i := t.home(h)
	for ; t.keys[i] != 0; i = (i + 1) & t.mask {
		if t.keys[i] == h {
			return false
		}
	}
	t.keys[i], t.vals[i] = h, id
	t.n++
	return true
}

// deleteIf removes h if it maps to id, closing the gap by shifting later
// entries of the probe run back (no tombstones).
func (t *prefixTable) deleteIf(h uint64, id int32) {
	i := t.home(h)
	for ; t.keys[i] != h; i = (i + 1) & t.mask {
		if t.keys[i] == 0 {
			return
		}
	}
	if t.vals[i] != id {
		return
	}
	t.n--
	for j := (i + 1) & t.mask; t.keys[j] != 0; j = (j + 1) & t.mask {
		k := t.home(t.keys[j])
		// Move j into the hole at i unless its home lies cyclically in (i, j].
		if (j > i && (k <= i || k > j)) || (j < i && k <= i && k > j) {
			t.keys[i], t.vals[i] = t.keys[j], t.vals[j]
			i = j
		}
	}
	t.keys[i] = 0
}

// each calls f for every entry (tests).
func (t *prefixTable) each(f func(h uint64, id int32)) {
	for i, k := range t.keys {
		if k != 0 {
			f(k, t.vals[i])
		}
	}
}
