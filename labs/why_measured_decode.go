package labs

// MeasuredDecode is the why of a decode time measured on server: the
// first token came first ms after the request was sent, the last
// complete ms after it. Nothing is modelled on top, and on a server the
// lab does not share, no other request's steps are in it to name.
func MeasuredDecode(server string, first, complete float64) Formula {
	return Formula{Unit: "ms", Result: complete - first,
		Before: "Measured on " + server + ": the time from the first token to the last. Decode time =",
		Expr:   "complete " + Figure(complete) + " − first token " + Figure(first),
		Lead:   "It holds the server's own steps, its queue and the network, all as the run saw them",
		After:  besideNote}
}
