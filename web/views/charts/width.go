package charts

import (
	"context"
	"math"
)

// widthKey is the context key of the width charts are drawn for.
type widthKey struct{}

// Narrowest and widest viewBox a chart is laid out in. The SVG fills its
// container, so text is drawn at (container width / viewBox width) of its
// size: laying the chart out for the container's own width keeps 11-unit
// text near 11 px on a phone, where a fixed box would shrink it to 6 or 7.
const (
	minWidth = 280.0
	maxWidth = viewW
)

// WithWidth returns ctx with the width (CSS pixels) of the box the page
// will show charts in, as the browser reported it. Charts rendered with
// ctx are laid out for that width, clamped to what a chart can use; a
// missing or odd width draws the default layout.
func WithWidth(ctx context.Context, px float64) context.Context {
	return context.WithValue(ctx, widthKey{}, px)
}

// widthFrom is the viewBox width for charts rendered with ctx.
func widthFrom(ctx context.Context) float64 {
	px, ok := ctx.Value(widthKey{}).(float64)
	if !ok || math.IsNaN(px) || px <= 0 {
		return viewW
	}
	return math.Round(math.Max(minWidth, math.Min(maxWidth, px)))
}
