package pipeline

import (
	"context"
	"testing"
)

// namedProvider is a provider told apart by its name; it is never streamed.
type namedProvider string

func (namedProvider) Stream(context.Context, ProviderRequest) (Stream, error) { return nil, nil }

func TestWrapProvidersLeavesTheSharedTiersAlone(t *testing.T) {
	shared := []Tier{{Name: "small", Provider: namedProvider("a")}, {Name: "large", Provider: namedProvider("b")}}
	wrapped := WrapProviders(shared, func(p Provider) Provider { return namedProvider("wrapped " + string(p.(namedProvider))) })
	for i, want := range []struct{ name, shared, wrapped string }{{"small", "a", "wrapped a"}, {"large", "b", "wrapped b"}} {
		if wrapped[i].Name != want.name || wrapped[i].Provider != namedProvider(want.wrapped) {
			t.Errorf("wrapped[%d] = %s %v, want %s %q", i, wrapped[i].Name, wrapped[i].Provider, want.name, want.wrapped)
		}
		if shared[i].Provider != namedProvider(want.shared) {
			t.Errorf("shared[%d] changed to %v", i, shared[i].Provider)
		}
	}
}
