package pipeline_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// One request end to end on the bundled engine's tiers. Stores are nil
// here (their stages switch off); the web layer passes its SQLite store as
// History, Retriever, Orders and Messages.
func Example() {
	tiers, closeAll, err := pipeline.StartEngineTiers(pipeline.DefaultTierSpecs(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer closeAll()

	cfg := pipeline.DefaultConfig()
	cfg.Gateway.FirstTokenTimeout = 2 * time.Second
	p, err := pipeline.New(cfg, pipeline.Deps{Tiers: tiers, Cache: pipeline.NewCache(256)})
	if err != nil {
		log.Fatal(err)
	}
	res, err := p.Run(context.Background(), pipeline.Request{ConversationID: "c1", Question: "How long does shipping take?", Seed: 1},
		func(ev pipeline.Event) {
			switch ev.Kind {
			case pipeline.EventDelta:
				fmt.Print(ev.Text)
			case pipeline.EventStageEnd:
				log.Printf("%-12s %v → %v %s", ev.Span.Stage, ev.Span.Start, ev.Span.End, ev.Span.Detail)
			case pipeline.EventError:
				fmt.Println("\n[" + ev.Status + "] " + ev.Err)
			}
		})
	if err != nil { // only a refused request (*pipeline.InputError)
		log.Fatal(err)
	}
	s := res.Summary
	fmt.Printf("\n%s on %s: first word %v (model TTFT %v), total %v, %d+%d tokens, $%.6f\n",
		res.Status, res.Tier, s.FirstWord, s.FirstToken, s.Total, s.PromptTokens, s.OutputTokens, s.Cost)
}
