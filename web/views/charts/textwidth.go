package charts

import "strings"

// textWidth estimates the rendered width of s. The advances are DejaVu
// Sans's (the widest common fallback of the system-ui stack, and what
// Linux browsers draw with), so an estimate errs on the wide side in other
// fonts: a gutter sized by it never lets text run into the axis.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		w += runeEm(r)
	}
	return w * size
}

// runeEm is the advance of r in ems.
func runeEm(r rune) float64 {
	switch {
	case r >= '0' && r <= '9':
		return 0.636
	case r >= 'A' && r <= 'Z':
		switch r {
		case 'I', 'J':
			return 0.32
		case 'M', 'W':
			return 0.9
		}
		return 0.7
	}
	switch r {
	case ' ', '.', ',', ':', ';', '·', '\'', '!', '|':
		return 0.318
	case 'i', 'j', 'l':
		return 0.278
	case 'f', 't', '(', ')', '[', ']', '/', '-':
		return 0.39
	case 'r':
		return 0.411
	case 's', 'c', 'z':
		return 0.53
	case 'm':
		return 0.974
	case 'w':
		return 0.818
	case '+', '=', '<', '>', '≈', '×', '~':
		return 0.838
	case '%', '…':
		return 1.0
	}
	if r >= 'a' && r <= 'z' {
		return 0.62
	}
	return 0.7
}

// labelWidth estimates the width of a bold label drawn over the data;
// semibold glyphs run about a tenth wider.
func labelWidth(s string) float64 { return textWidth(s, labelSize) * 1.1 }

// truncate shortens s with an ellipsis so that it fits in maxW.
func truncate(s string, maxW, size float64) string {
	if textWidth(s, size) <= maxW {
		return s
	}
	r := []rune(s)
	w := textWidth("…", size)
	n := 0
	for n < len(r) && w+runeEm(r[n])*size <= maxW {
		w += runeEm(r[n]) * size
		n++
	}
	if n == 0 {
		return "…"
	}
	return strings.TrimRight(string(r[:n]), " ") + "…"
}

// boldScale is how much wider semibold glyphs run than the regular ones
// textWidth measures; titles are drawn semibold.
const boldScale = 1.12

// wrapWords breaks s at spaces into at most maxLines lines no wider than
// maxW at size; what does not fit on the last line is cut with an
// ellipsis. Every line but the last keeps its trailing space, so the lines
// joined give back s when nothing was cut.
func wrapWords(s string, maxW, size float64, maxLines int) []string {
	words := strings.Fields(s)
	var lines []string
	line := ""
	for i, w := range words {
		next := w
		if line != "" {
			next = line + " " + w
		}
		if line == "" || textWidth(next, size) <= maxW {
			line = next
			continue
		}
		if len(lines) == maxLines-1 {
			line = strings.Join(append([]string{line}, words[i:]...), " ")
			break
		}
		lines = append(lines, line+" ")
		line = w
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, truncate(line, maxW, size))
	}
	for i, l := range lines[:len(lines)-1] {
		if textWidth(l, size) > maxW+textWidth(" ", size) {
			lines[i] = truncate(l, maxW, size)
		}
	}
	return lines
}
