package labs

// KnobKind says how a knob is edited and validated.
type KnobKind string

// Knob kinds.
const (
	KnobRange KnobKind = "range" // a number between Min and Max in steps of Step
	KnobEnum  KnobKind = "enum"  // one of Options
	KnobBool  KnobKind = "bool"  // on or off
)

// Option is one choice of an enum knob.
type Option struct {
	Value string
	Label string
}

// Knob is one setting of a lab. Name doubles as the Datastar signal name, so
// it must be a JavaScript identifier in camelCase (e.g. "answerTokens").
type Knob struct {
	Name  string
	Label string
	Help  string // one line shown under the control
	Kind  KnobKind
	Unit  string  // for ranges, e.g. "tokens", "ms"
	Min   float64 // for ranges
	Max   float64 // for ranges
	Step  float64 // for ranges; 1 for integers
	// ZeroLabel, for a range whose 0 switches something off, is what
	// the readout shows at 0 instead of a number ("off", "never"), so a
	// cap of 0 does not read as a speed of zero.
	ZeroLabel string
	Options   []Option
	// Default is float64 for ranges, string for enums and bool for bools.
	Default any
}

// Preset is a named set of knob values worth trying.
type Preset struct {
	Name   string
	Note   string // what to look for when running it
	Values Values
}
