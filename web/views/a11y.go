package views

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// knobID is the id of a knob's control, which its label points at.
func knobID(l Lab, k KnobView) string { return l.Prefix + "-k-" + k.Knob.Name }

// helpID is the id of a knob's help text, which its control names as its
// description.
func helpID(l Lab, k KnobView) string { return knobID(l, k) + "-help" }

// helpAttrs names a knob's help text as its control's description, when
// it has any.
func helpAttrs(l Lab, k KnobView) templ.Attributes {
	if k.Knob.Help == "" {
		return nil
	}
	return templ.Attributes{"aria-describedby": helpID(l, k)}
}

// valueText is the Datastar expression for a slider's aria-valuetext: the
// value with its unit, so a screen reader says "200 tokens", not "200".
func valueText(k KnobView) string {
	return readoutExpr(k) + " + " + jsString(" "+k.Knob.Unit) // binds tighter than the readout's ?:, so the unit joins only the number
}

// regionOwnerKey holds, in a render's context, whose panels are being
// drawn, e.g. "run #3" on one side of a comparison.
type regionOwnerKey struct{}

// withRegionOwner renders c with owner named as the owner of its
// scrollable regions, so two sides of a comparison do not offer two
// landmarks both called "What the user saw".
func withRegionOwner(owner string, c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return c.Render(context.WithValue(ctx, regionOwnerKey{}, owner), w)
	})
}

// regionName is the accessible name of a scrollable region: its title
// (or fallback when it has none), after its owner's name when one is set.
func regionName(ctx context.Context, title, fallback string) string {
	if title == "" {
		title = fallback
	}
	if owner, _ := ctx.Value(regionOwnerKey{}).(string); owner != "" {
		return owner + ": " + title
	}
	return title
}

// givenAttrs names a mock question's given figures as the description of
// its answer box, when it has any.
func givenAttrs(it MockItemView) templ.Attributes {
	if it.Given == "" {
		return nil
	}
	return templ.Attributes{"aria-describedby": "mock-given-" + strconv.Itoa(it.N)}
}

// mockChartLabel names the mock-score chart and reads out its bars, which
// an image role hides from screen readers.
func mockChartLabel(points []MockPoint) string {
	scores := make([]string, len(points))
	for i, p := range points {
		scores[i] = p.Label + " " + strconv.Itoa(p.Percent) + "%"
		if p.Partial {
			scores[i] += " so far"
		}
	}
	return "Overall score of each mock interview, oldest first: " + strings.Join(scores, ", ")
}

// answering reports whether one of the live turn's messages is still
// streaming.
func answering(msgs []ChatMessage) bool {
	for _, m := range msgs {
		if m.Status == "streaming" {
			return true
		}
	}
	return false
}
