package labs

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Values are validated knob settings keyed by knob name: float64 for ranges,
// string for enums, bool for bools.
type Values map[string]any

// Float returns a range knob's value.
func (v Values) Float(name string) float64 { f, _ := v[name].(float64); return f }

// Int returns a range knob's value rounded to an integer.
func (v Values) Int(name string) int { return int(math.Round(v.Float(name))) }

// String returns an enum knob's value.
func (v Values) String(name string) string { s, _ := v[name].(string); return s }

// Bool returns a bool knob's value.
func (v Values) Bool(name string) bool { b, _ := v[name].(bool); return b }

// FieldError is a problem with one knob's value, shown next to that knob.
type FieldError struct {
	Knob    string
	Message string
}

func (e FieldError) Error() string { return e.Knob + ": " + e.Message }

// Defaults returns every knob's default value.
func Defaults(knobs []Knob) Values {
	v := Values{}
	for _, k := range knobs {
		v[k.Name] = k.Default
	}
	return v
}

// Validate checks raw values (as decoded from JSON signals: numbers as
// float64 or numeric strings, since range inputs bind strings) against the
// knobs. Missing knobs take their defaults; unknown keys are ignored. It
// returns clean Values or one FieldError per bad knob.
func Validate(knobs []Knob, raw map[string]any) (Values, []FieldError) {
	out := Values{}
	var errs []FieldError
	for _, k := range knobs {
		r, present := raw[k.Name]
		if !present || r == nil {
			out[k.Name] = k.Default
			continue
		}
		val, err := coerce(k, r)
		if err != nil {
			errs = append(errs, FieldError{Knob: k.Name, Message: err.Error()})
			continue
		}
		out[k.Name] = val
	}
	return out, errs
}

func coerce(k Knob, r any) (any, error) {
	switch k.Kind {
	case KnobRange:
		var f float64
		switch x := r.(type) {
		case float64:
			f = x
		case string:
			p, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return nil, fmt.Errorf("%s must be a number", k.Label)
			}
			f = p
		default:
			return nil, fmt.Errorf("%s must be a number", k.Label)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) || f < k.Min || f > k.Max {
			return nil, fmt.Errorf("%s must be between %s and %s%s", k.Label, fmtNum(k.Min), fmtNum(k.Max), unitSuffix(k.Unit))
		}
		if k.Step >= 1 {
			f = math.Round(f)
		}
		return f, nil
	case KnobEnum:
		s, ok := r.(string)
		if !ok {
			return nil, fmt.Errorf("%s must be one of the listed choices", k.Label)
		}
		for _, o := range k.Options {
			if o.Value == s {
				return s, nil
			}
		}
		return nil, fmt.Errorf("%s: %q is not one of the listed choices", k.Label, s)
	case KnobBool:
		switch x := r.(type) {
		case bool:
			return x, nil
		case string:
			b, err := strconv.ParseBool(x)
			if err != nil {
				return nil, fmt.Errorf("%s must be on or off", k.Label)
			}
			return b, nil
		}
		return nil, fmt.Errorf("%s must be on or off", k.Label)
	}
	return nil, fmt.Errorf("%s has an unknown kind", k.Label)
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

// JoinFieldErrors is the error a lab's parse returns for Validate's field
// errors: nil for none, the FieldError itself for one (so its message can
// be shown beside its knob), and errors.Join of them all for more.
func JoinFieldErrors(errs []FieldError) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	es := make([]error, len(errs))
	for i, e := range errs {
		es[i] = e
	}
	return errors.Join(es...)
}
