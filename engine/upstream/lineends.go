package upstream

import (
	"bytes"
	"strings"
)

// lineEnds turns CRLF and bare CR in a run of streamed text pieces into LF,
// also when a CRLF is split across two pieces. A model's answer ends up in
// web pages and SSE streams, where a bare CR ends a line (the SSE parser in
// browsers treats CR, LF and CRLF alike); LF is the only line end the rest
// of the app has to think about.
type lineEnds struct {
	afterCR bool // the last piece ended with CR, so a leading LF is its pair
}

// normalize returns piece with its line ends as LF.
func (n *lineEnds) normalize(piece string) string {
	if piece == "" {
		return piece
	}
	if n.afterCR {
		piece = strings.TrimPrefix(piece, "\n")
	}
	n.afterCR = strings.HasSuffix(piece, "\r")
	if !strings.Contains(piece, "\r") {
		return piece
	}
	return strings.ReplaceAll(strings.ReplaceAll(piece, "\r\n", "\n"), "\r", "\n")
}

// scanEventLines is a bufio.SplitFunc for SSE: a line ends at LF, CRLF or
// a bare CR, as the SSE specification says, so a server that ends lines
// with CR is read right instead of as one endless line.
func scanEventLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0 && atEOF:
		return len(data), data, nil
	case i < 0:
		return 0, nil, nil // need more
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data) && data[i+1] == '\n':
		return i + 2, data[:i], nil
	case i+1 < len(data) || atEOF:
		return i + 1, data[:i], nil
	}
	return 0, nil, nil // a CR at the end: wait to see whether LF follows
}
