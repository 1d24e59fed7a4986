package labs

import "context"

// Settled turns a run of a lab's own settings into the run of params a
// Spec takes. derive (the lab's params.settings) converts the checked
// params into the types the run works with, once, before the run starts;
// a derivation that fails is the server's error, since Check has already
// passed the params.
func Settled[P, S any](derive func(P) (S, error), run func(context.Context, S, func(Frame)) error) func(context.Context, P, func(Frame)) error {
	return func(ctx context.Context, p P, emit func(Frame)) error {
		s, err := derive(p)
		if err != nil {
			return err
		}
		return run(ctx, s, emit)
	}
}

// Attach stores a defined kit in the lab that embeds it and returns the
// lab, or the error defining the kit returned. The kit is defined after
// the lab exists because its run is one of the lab's methods:
//
//	l := &Lab{cfg: cfg}
//	return labs.Attach(l, &l.Kit)(define(l.run))
func Attach[L any, P Params](lab L, slot **Kit[P]) func(*Kit[P], error) (L, error) {
	return func(k *Kit[P], err error) (L, error) {
		if err != nil {
			var none L
			return none, err
		}
		*slot = k
		return lab, nil
	}
}
