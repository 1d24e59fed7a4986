package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
)

// Hosting is what makes a hosted tier slower than the same model on an idle
// GPU next door, each cause on its own so a lab can switch it off: the
// network to the provider, other tenants' traffic on the provider's engine,
// and the provider's GPU class. The zero value is an idle engine with no
// network in between.
type Hosting struct {
	// RTT is the round trip between the gateway and the provider.
	RTT time.Duration
	// FreshConnection opens a new TCP + TLS connection for every call
	// instead of reusing a kept-alive one: two more round trips.
	FreshConnection bool
	// Tenants is other people's load on the provider's engine.
	Tenants TenantLoad
	// Hardware is the provider's GPU (an engine hardware profile); ""
	// keeps the tier's own.
	Hardware string
}

// maxRTT bounds the round trip a lab may ask for.
const maxRTT = 2 * time.Second

// Validate reports a round trip outside 0..2 s, a bad load or an unknown
// GPU.
func (h Hosting) Validate() error {
	if h.RTT < 0 || h.RTT > maxRTT {
		return fmt.Errorf("network round trip %v is outside 0..%v", h.RTT, maxRTT)
	}
	if err := h.Tenants.Validate(); err != nil {
		return err
	}
	if h.Hardware != "" {
		if _, err := engine.LookupHardware(h.Hardware); err != nil {
			return fmt.Errorf("provider GPU: %w", err)
		}
	}
	return nil
}

// Handshakes is the round trips a call spends opening its connection.
func (h Hosting) Handshakes() int {
	if h.FreshConnection {
		return FreshConnectionHandshakes
	}
	return 0
}

// Legs are the network's waits around the provider: up before the engine
// sees a call (the handshakes and the upload), down for every chunk on its
// way back. Their sum is what the network adds to the first token.
func (h Hosting) Legs() (up, down time.Duration) {
	return NetworkProvider{RTT: h.RTT, Handshakes: h.Handshakes()}.Legs()
}

// Behind puts the network of h in front of p (p itself when there is
// none).
func (h Hosting) Behind(p Provider, clk clock.Clock) Provider {
	if h.RTT <= 0 {
		return p
	}
	return NetworkProvider{Inner: p, RTT: h.RTT, Handshakes: h.Handshakes(), Clock: clk}
}

// Apply sets the provider's GPU on an engine configuration.
func (h Hosting) Apply(cfg *engine.Config) error {
	if h.Hardware == "" {
		return nil
	}
	hw, err := engine.LookupHardware(h.Hardware)
	if err != nil {
		return fmt.Errorf("provider GPU: %w", err)
	}
	cfg.Hardware = hw
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("provider GPU %s: %w", h.Hardware, err)
	}
	return nil
}

// HostedEngine is a provider's own live engine with other tenants' load
// running on it: the learner's requests share its queue and batches.
type HostedEngine struct {
	Engine *live.Engine
	load   TenantLoad
	clk    clock.Clock
}

// StartHostedEngine starts an engine of cfg (with h's GPU) paced by clk and
// h's tenant load on it. Close it when the run ends.
func StartHostedEngine(cfg engine.Config, h Hosting, clk clock.Clock) (*HostedEngine, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	if err := h.Apply(&cfg); err != nil {
		return nil, err
	}
	e, err := live.New(live.Config{Engine: cfg, Clock: clk, Source: "tenants", Background: h.Tenants.Background()})
	if err != nil {
		return nil, fmt.Errorf("hosted engine: %w", err)
	}
	return &HostedEngine{Engine: e, load: h.Tenants, clk: clk}, nil
}

// WarmUp is Settled for a caller whose ctx may have ended. It does not
// wait: the engine runs the warm-up's traffic in modelled time when the
// caller's request arrives (see Settled), so sleeping it on the wall clock
// would only keep the learner waiting.
func (he *HostedEngine) WarmUp(ctx context.Context, ahead time.Duration) error {
	if !he.load.On() {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	he.Settled(ahead)
	return nil
}

// Settled says that the caller's modelled timeline stands at the end of
// the warm-up now (see WarmUp for ahead): a request sent at a modelled
// moment after it (live.WithSentAt) then reaches the tenants' traffic
// where the model puts it, however late a busy host ended the warm-up's
// wait or sent the request. The engine runs the traffic only while a
// caller's request is on it (live.Background), so nothing has run ahead.
func (he *HostedEngine) Settled(ahead time.Duration) {
	if he.load.On() {
		he.Engine.Anchor(clock.Or(he.clk).Now(), he.load.warmUp()-ahead)
	}
}

// TenantsSent is how many of other tenants' requests reached the engine.
func (he *HostedEngine) TenantsSent() int { return he.Engine.Background().Sent }

// Close stops the engine and its load; every goroutine of both has
// returned when it does.
func (he *HostedEngine) Close() error {
	if err := he.Engine.Close(); err != nil {
		return errors.Join(errors.New("hosted engine: close"), err)
	}
	return nil
}
