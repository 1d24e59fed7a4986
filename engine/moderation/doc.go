// Package moderation checks text for safety and decides what of a
// streaming answer may reach the reader. It has two halves that follow the
// data flow:
//
//   - Detectors that really run on text: personal data (e-mail addresses,
//     phone numbers, payment cards with a Luhn check, IBANs with the mod-97
//     check), a policy classifier for off-policy content (rules plus a naive
//     Bayes model over stemmed words, trained at first use from bundled
//     labelled files, its threshold on the posterior log-odds chosen on a
//     validation split for 1% false alarms), and a prompt-injection
//     detector. A Checker runs them,
//     measures its own time on an injected clock and can wait a simulated
//     service latency, as a call to a moderation model would cost.
//   - Policies that sit between generation and delivery: a Filter is a
//     synchronous state machine (tokens in, deliveries and check requests
//     out) and a Stage drives one with a Checker, running checks while
//     generation goes on, the way a serving stack's moderation stage would.
//     Stage.RunTimed puts the stream on a modelled timeline (each token at
//     its stamped time, each check taking its configured latency) so a busy
//     host changes when events are handled but not their modelled times.
//
// The package imports only the standard library, so the request pipeline,
// the chat and the OpenAI surface can use it as a stage. Its tests measure
// the policy check's false alarms on held-out text the product shows (the
// text model's corpus, the store's help articles, answers composed from
// them and the API's 20/10-token windows); see eval_test.go.
package moderation
