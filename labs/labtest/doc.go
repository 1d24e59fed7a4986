// Package labtest holds helpers that the labs' tests share: a lockstep
// clock that keeps a live engine one step behind a lab's handler, and
// starting the web app with some labs (and a seeded support desk) for
// browser tests. Only tests import it.
package labtest
