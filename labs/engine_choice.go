package labs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
)

// The two engines a lab can run on when an upstream server is configured.
const (
	EngineBundled = "bundled" // the bundled engine, the default
	EngineServer  = "server"  // the upstream server, with the bundled engine modelling it beside
)

// engineLabs are the labs whose requests go to an engine from the pool
// (through Engines.For), so they can run against an upstream server.
var engineLabs = []string{"streaming", "prefill-decode", "batching", "rag", "levers",
	"moderation", "timeouts", "cancellation", "latency-budget", "stack"}

// RunsOnEngine reports whether the lab with this slug submits to the engine
// pool, so it can offer "Engine: bundled / that server".
func RunsOnEngine(slug string) bool { return slices.Contains(engineLabs, slug) }

// UpstreamConfig says which OpenAI-compatible server the labs may run on
// and what it is, so the bundled engine can model the same deployment.
type UpstreamConfig struct {
	// Client reaches the server; required.
	Client *upstream.Client
	// Model is the model name to ask the server for; required.
	Model string
	// Deployment is what the server runs (GPU, model shape, precision,
	// TP): the bundled engine beside it models this.
	Deployment engine.Config
}

// Validate reports a configuration the labs cannot use.
func (c UpstreamConfig) Validate() error {
	if c.Client == nil || c.Client.BaseURL == "" {
		return errors.New("upstream: no server address")
	}
	if c.Model == "" {
		return errors.New("upstream: no model name")
	}
	if err := c.Deployment.Validate(); err != nil {
		return fmt.Errorf("upstream deployment: %w", err)
	}
	return nil
}

// EngineChoice is the pair of pools a run against an upstream server uses:
// Server sends every request to the server; Twin is the bundled engine
// modelling the server's deployment, which runs the same settings beside
// it. Both ignore the model and GPU a learner picks: the server is what it
// is. The twin's engines are its own, so learners on the bundled engine do
// not load the model of the server.
type EngineChoice struct {
	Server, Twin *Engines
	// Label names the server for pages, e.g. "the server at http://…/v1
	// (llama-3.1-8b)"; Modelled names the twin's deployment.
	Label, Modelled string
}

// NewEngineChoice starts the two pools for u; the clock and observer come
// from base, as the labs' own pool has them.
func NewEngineChoice(u UpstreamConfig, base EnginesConfig) (*EngineChoice, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	dep := u.Deployment
	server, twin := base, base
	server.Pin, twin.Pin = &dep, &dep
	server.Remote = tallied((&remote{client: u.Client, model: u.Model}).submit)
	server.Observer = nil // the server's requests are not the bundled engine's to meter
	server.Tune, twin.Tune = nil, nil
	p := Profile{Hardware: dep.Hardware.Name, Model: dep.Model.Name, Precision: dep.Precision, TP: dep.TP}
	return &EngineChoice{Server: NewEngines(server), Twin: NewEngines(twin),
		Label: "the server at " + u.Client.BaseURL + " (" + u.Model + ")", Modelled: p.String()}, nil
}

// Close stops both pools.
func (c *EngineChoice) Close() error { return errors.Join(c.Server.Close(), c.Twin.Close()) }

// ServerContext makes a lab run with ctx on the server, TwinContext on the
// bundled engine modelling it. The tally counts every request the run
// sends the server and keeps the first failure it answered with: a lab
// mode that never asks the pool for an engine (batching's sweep, or its
// dedicated engine) leaves the count at zero, and its figures are then the
// bundled engine's, not the server's. Both contexts mark the run as
// Compared.
func (c *EngineChoice) ServerContext(ctx context.Context) (context.Context, *ServerTally) {
	t := &ServerTally{}
	return context.WithValue(WithEngines(compared(ctx), c.Server), tallyKey{}, t), t
}

// TwinContext is ServerContext for the bundled engine modelling the server.
func (c *EngineChoice) TwinContext(ctx context.Context) context.Context {
	return WithEngines(compared(ctx), c.Twin)
}
