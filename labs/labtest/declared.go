package labtest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// Entry is what a lab's tests expect of its catalogue entry.
type Entry struct {
	Slug, Lesson, PredictionStat string
	PredictionUnit               string   // "" leaves the unit unchecked
	Presets                      []string // preset names in order; nil leaves them unchecked
}

// camelCase is a knob name that is also a Datastar signal name.
var camelCase = regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)

// CheckDeclaration checks a lab's declaration as a learner meets it: the
// catalogue entry is want's; every knob has a unique camelCase name, help
// and a default that is valid on its own (an enum's is one of its
// options); the defaults together are valid; and every preset has a note,
// sets every knob and is valid, with want's names in order when given.
func CheckDeclaration(t testing.TB, l labs.Lab, want Entry) {
	t.Helper()
	info := l.Info()
	if info.Slug != want.Slug || info.Lesson != want.Lesson || info.PredictionStat != want.PredictionStat ||
		(want.PredictionUnit != "" && info.PredictionUnit != want.PredictionUnit) {
		t.Errorf("info %+v, want %+v", info, want)
	}
	seen := map[string]bool{}
	for _, k := range l.Knobs() {
		if !camelCase.MatchString(k.Name) || seen[k.Name] {
			t.Errorf("knob %q: not camelCase or duplicate", k.Name)
		}
		seen[k.Name] = true
		if k.Help == "" {
			t.Errorf("knob %s has no help", k.Name)
		}
		if errs := FieldErrors(l, labs.Values{k.Name: k.Default}); len(errs) > 0 {
			t.Errorf("knob %s: default %v is invalid: %v", k.Name, k.Default, errs)
		}
		if k.Kind == labs.KnobEnum && !slices.ContainsFunc(k.Options, func(o labs.Option) bool { return o.Value == k.Default }) {
			t.Errorf("knob %s: default %v is not an option", k.Name, k.Default)
		}
	}
	if errs := FieldErrors(l, Defaults(l)); len(errs) > 0 {
		t.Errorf("defaults do not validate: %v", errs)
	}
	ps := l.Presets()
	if want.Presets != nil && len(ps) != len(want.Presets) {
		t.Fatalf("%d presets, want %d", len(ps), len(want.Presets))
	}
	for i, p := range ps {
		if want.Presets != nil && p.Name != want.Presets[i] {
			t.Errorf("preset %d: %q, want %q", i, p.Name, want.Presets[i])
		}
		if p.Note == "" {
			t.Errorf("preset %q has no note", p.Name)
		}
		for k := range seen {
			if _, ok := p.Values[k]; !ok {
				t.Errorf("preset %q does not set %s", p.Name, k)
			}
		}
		if len(p.Values) != len(seen) {
			t.Errorf("preset %q sets %d values for %d knobs", p.Name, len(p.Values), len(seen))
		}
		if errs := FieldErrors(l, p.Values); len(errs) > 0 {
			t.Errorf("preset %q: %v", p.Name, errs)
		}
	}
}

// Refusal is settings a learner could send and how the lab must answer.
type Refusal struct {
	Name string      // the subtest's name
	Vals labs.Values // the settings as sent; knobs left out keep their defaults
	Knob string      // the one knob Decode must blame; "" when not checked
	// Want is a part of the message the run must end with; "" means the
	// settings are valid and Decode must accept them.
	Want string
}

// ExpectRefusals runs each case as a subtest of t. A refusal must end the
// run with one final frame whose message contains Want and no error (see
// ExpectNotRun), and blame exactly Knob when it is set: a learner's
// mistake is a message naming the knob to change, never a failure.
func ExpectRefusals(t *testing.T, l Lab, cases []Refusal) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			errs := FieldErrors(l, tc.Vals)
			if tc.Want == "" {
				if errs != nil {
					t.Fatalf("field errors %v, want none", errs)
				}
				return
			}
			if msg := ExpectNotRun(t, l, tc.Vals); !strings.Contains(msg, tc.Want) {
				t.Errorf("error %q does not mention %q", msg, tc.Want)
			}
			if tc.Knob != "" && (len(errs) != 1 || errs[0].Knob != tc.Knob) {
				t.Errorf("field errors %v, want one on %q", errs, tc.Knob)
			}
		})
	}
}
