package labs

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Values are knob settings keyed by knob name, as the page's signals hold
// them: float64 for ranges, string for enums and bool for bools. The kit
// makes them from a lab's params for presets and the run list.
type Values map[string]any

// FieldError is a problem with one knob's value, shown next to that knob.
type FieldError struct {
	Knob    string
	Message string
}

func (e FieldError) Error() string { return e.Knob + ": " + e.Message }

// coerce checks one raw value (as decoded from JSON signals: numbers as
// float64 or numeric strings, since range inputs bind strings) against its
// knob and returns it in its signal form.
func coerce(k Knob, r any) (any, error) {
	switch k.Kind {
	case KnobRange:
		var f float64
		switch x := r.(type) {
		case float64:
			f = x
		case int:
			f = float64(x)
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

func fmtNum(f float64) string { return Number(f) }

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
