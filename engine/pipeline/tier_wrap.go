package pipeline

// WrapProviders returns a copy of tiers whose providers are wrap(provider),
// leaving tiers itself untouched: labs wrap a shared set of tiers per run
// (to time chunks, record requests or add a call) without changing what
// other runs see.
func WrapProviders(tiers []Tier, wrap func(Provider) Provider) []Tier {
	out := make([]Tier, len(tiers))
	for i, t := range tiers {
		t.Provider = wrap(t.Provider)
		out[i] = t
	}
	return out
}
