package streaming

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestFiguresGroupThousands runs every preset as given and with the
// longest answer and prompt: no status, note, table or explanation of any
// frame may write a figure of four or more digits ungrouped ("Complete:
// 1000 tokens" beside a card's "1,000").
func TestFiguresGroupThousands(t *testing.T) {
	l := mustNew(t, Config{Engines: labs.NewEngines(labs.EnginesConfig{})})
	long := labs.Values{knobAnswer: 1000.0, knobPrompt: 8000.0}
	for _, p := range l.Presets() {
		for name, changes := range map[string]labs.Values{p.Name: nil, p.Name + ", 1,000 tokens": long} {
			t.Run(name, func(t *testing.T) {
				frames := labtest.RunInBubble(t, onPool, labtest.PresetWith(t, l, p.Name)(changes), nil)
				for _, f := range frames {
					labtest.CheckGrouping(t, name, f)
				}
				if changes != nil {
					t.Log(frames[len(frames)-1].Status)
				}
			})
		}
	}
}
