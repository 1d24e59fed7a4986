// Package charts draws a labs.Chart as one self-contained SVG element.
//
// Every component renders a single <svg id={Chart.ID}> with a <title>, so a
// Datastar merge-fragments patch can morph the chart whole (loose <g> or
// <rect> fragments would land in the HTML namespace and draw nothing). The
// SVG has a fixed viewBox and width 100%, so it scales with its container
// and keeps its aspect ratio; on a phone it shrinks rather than reflows.
//
// The chart draws its own title (top left) and legend, so a page needs no
// caption; hovering a bar, span or point shows its value (an SVG <title>).
//
// For screen readers the <svg> is one image (role="img") named by its
// title and kind, and described by a <desc> it points to with
// aria-describedby: what each axis measures, then a summary of the data —
// each series' range, each bar's total and parts, a timeline's time per
// kind of span, a histogram's sample count — and the labelled marks.
//
// The maths (scales, 1-2-5 ticks, number formatting by unit, colours, path
// building, label placement) lives in plain Go files and builds a small view
// model; the templ files only turn that model into markup, and every piece of
// text goes through templ's escaping.
//
// # Styling
//
// Essential styling is set with presentation attributes, so a chart is
// legible with no stylesheet: text and axes use currentColor, so the chart
// follows the page's text colour in light and dark themes, and data colours
// are mid-tone hues readable on both backgrounds. charts.css (next to this
// file) refines that; it uses these classes, all prefixed ch-:
//
//	ch          the <svg> root: width, font, tabular numbers
//	ch-title    chart title (top left)
//	ch-legend   legend group; ch-legend-item one entry
//	ch-grid     gridlines; ch-grid-minor the unlabelled ones of a log axis
//	ch-axis     axis lines
//	ch-tick     tick labels; ch-tick-x and ch-tick-y per axis
//	ch-axis-title  axis titles
//	ch-data     the group holding series, bars and spans
//	ch-dot      a point (scatter points, lone points of a line); thin outline
//	ch-halo     a ring of background round a lone point, set by charts.css
//	ch-stripes  shading behind every other timeline row
//	ch-mark     vertical reference lines (drawn behind the data) and, with
//	            ch-mark-labels, their labels in the lane above the plot
//	ch-hline    horizontal reference lines (budgets)
//	ch-label    value labels drawn over data (bar totals, mark labels); gets a halo
//	ch-note     the "waiting for data" note
//
// and these custom properties: --ch-bg (halo colour behind labels drawn
// over data, default Canvas), --ch-font (font stack), --ch-hline-ink (text
// colour of budget-line labels, darker than the line's red so small text
// keeps 4.5:1 contrast; set per theme by the page).
//
// Axes are linear, or log10 with Chart.LogX and Chart.LogY (decade ticks,
// 2 and 5 when few decades show, minor gridlines at 2…9). The left margin
// fits the widest Y tick label, with the rotated Y title beyond it. Mark
// labels sit in a lane of staggered rows above the plot, so they never
// cover the data, never overlap, and no other mark's line crosses them.
//
// Colours are fixed per name: well-known names ("queued", "prefill",
// "decode", "reading speed", "budget", …) always get the same colour, and any
// other name gets a colour from a fixed palette chosen by a hash of the name,
// so the same series looks the same in every chart. Every data colour has
// at least 3:1 contrast on white and on the dark theme's surfaces.
package charts
