package labs

import (
	"fmt"
	"math"
	"reflect"
)

// Field is one knob bound to one field of a params struct P. Build it with
// Bind; the kit reads defaults and presets through it and writes decoded
// values into it.
type Field[P any] struct {
	knob Knob
	get  func(*P) any  // the field as a signal value: float64, string or bool
	set  func(*P, any) // a value coerce has accepted for this knob
	err  error         // a declaration mistake, reported by Define
}

// Bind declares knob k as field of P. The field's type sets the knob's
// kind: a bool is a KnobBool, a string (or a string type) a KnobEnum that
// needs Options, an int or float64 a KnobRange. Range values are rounded
// when Step ≥ 1 and always for int fields. k.Default is ignored: a knob's
// default is the field's value in the Spec's Defaults.
func Bind[P any, T ~int | ~float64 | ~string | ~bool](k Knob, field func(*P) *T) Field[P] {
	var zero T
	kind := reflect.TypeOf(zero).Kind()
	f := Field[P]{knob: k}
	switch kind {
	case reflect.Bool:
		f.knob.Kind = KnobBool
	case reflect.String:
		f.knob.Kind = KnobEnum
		if len(k.Options) == 0 {
			f.err = fmt.Errorf("an enum needs options")
		}
	default:
		f.knob.Kind = KnobRange
		if !(k.Min <= k.Max) || k.Step < 0 {
			f.err = fmt.Errorf("range %v..%v step %v is empty", k.Min, k.Max, k.Step)
		}
	}
	if k.ZeroLabel != "" && (f.knob.Kind != KnobRange || k.Min > 0) {
		f.err = fmt.Errorf("a zero label needs a range that reaches 0")
	}
	if k.Kind != "" && k.Kind != f.knob.Kind {
		f.err = fmt.Errorf("declared %s but bound to a %s field", k.Kind, kind)
	}
	f.get = func(p *P) any {
		v := reflect.ValueOf(field(p)).Elem()
		switch kind {
		case reflect.Bool:
			return v.Bool()
		case reflect.String:
			return v.String()
		case reflect.Int:
			return float64(v.Int())
		}
		return v.Float()
	}
	f.set = func(p *P, val any) {
		v := reflect.ValueOf(field(p)).Elem()
		switch x := val.(type) {
		case bool:
			v.SetBool(x)
		case string:
			v.SetString(x)
		case float64:
			if kind == reflect.Int {
				v.SetInt(int64(math.Round(x)))
			} else {
				v.SetFloat(x)
			}
		}
	}
	return f
}
