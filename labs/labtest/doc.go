// Package labtest holds helpers that the labs' tests share: running a lab
// in a synctest bubble, and starting the web app with some labs (and a
// seeded support desk) for browser tests. Only tests import it.
package labtest
