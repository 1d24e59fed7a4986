package lessons

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// frontMatter is the raw, unrendered header of a lesson file.
type frontMatter struct {
	Title    string
	Order    int
	Summary  string
	Labs     []string
	Question string
	Rubric   []string
	Answer   string // Markdown
}

// slugPattern is what a lab slug may look like; anything else is a typo.
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// splitFrontMatter separates the block between the opening and closing "---"
// lines from the body. Line numbers in later errors count from the file's
// first line, so the block starts at line 2.
func splitFrontMatter(src []byte) (header []string, body []byte, err error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return nil, nil, fmt.Errorf("line 1: file must start with a \"---\" front matter line")
	}
	rest := src[len("---\n"):]
	lines := strings.Split(string(rest), "\n")
	for i, line := range lines {
		if line == "---" {
			body := strings.Join(lines[i+1:], "\n")
			return lines[:i], []byte(body), nil
		}
	}
	return nil, nil, fmt.Errorf("front matter is not closed by a \"---\" line")
}

// parseFrontMatter reads the deliberately small YAML subset the lessons use:
// "key: value" scalars, "labs: [a, b]", a "rubric:" block of "  - item" lines
// and an "answer: |" block of lines indented by two spaces. Anything else is
// an error with its line number, so a malformed file fails a test instead of
// rendering half a lesson.
func parseFrontMatter(lines []string) (frontMatter, error) {
	var fm frontMatter
	seen := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		lineNo := i + 2
		line := lines[i]
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			return fm, fmt.Errorf("line %d: unexpected indented line %q", lineNo, line)
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return fm, fmt.Errorf("line %d: want \"key: value\", got %q", lineNo, line)
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if seen[key] {
			return fm, fmt.Errorf("line %d: duplicate key %q", lineNo, key)
		}
		seen[key] = true
		switch key {
		case "title", "summary", "question":
			s, err := scalar(value)
			if err != nil {
				return fm, fmt.Errorf("line %d: %s: %w", lineNo, key, err)
			}
			switch key {
			case "title":
				fm.Title = s
			case "summary":
				fm.Summary = s
			default:
				fm.Question = s
			}
		case "order":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return fm, fmt.Errorf("line %d: order must be a positive integer, got %q", lineNo, value)
			}
			fm.Order = n
		case "labs":
			labs, err := inlineList(value)
			if err != nil {
				return fm, fmt.Errorf("line %d: labs: %w", lineNo, err)
			}
			fm.Labs = labs
		case "rubric":
			if value != "" {
				return fm, fmt.Errorf("line %d: rubric items go on their own \"  - \" lines", lineNo)
			}
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  - ") {
				i++
				item := strings.TrimSpace(strings.TrimPrefix(lines[i], "  - "))
				if item == "" {
					return fm, fmt.Errorf("line %d: empty rubric item", i+2)
				}
				fm.Rubric = append(fm.Rubric, item)
			}
		case "answer":
			if value != "|" {
				return fm, fmt.Errorf("line %d: answer must be a \"|\" block", lineNo)
			}
			var block []string
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "  ") || strings.TrimSpace(lines[i+1]) == "") {
				i++
				block = append(block, strings.TrimPrefix(lines[i], "  "))
			}
			fm.Answer = strings.TrimSpace(strings.Join(block, "\n"))
		default:
			return fm, fmt.Errorf("line %d: unknown key %q", lineNo, key)
		}
	}
	return fm, fm.validate()
}

// validate insists on every field a lesson page and its drill need.
func (fm frontMatter) validate() error {
	var missing []string
	for _, f := range []struct {
		name  string
		empty bool
	}{
		{"title", fm.Title == ""},
		{"order", fm.Order == 0},
		{"summary", fm.Summary == ""},
		{"question", fm.Question == ""},
		{"rubric", len(fm.Rubric) == 0},
		{"answer", fm.Answer == ""},
	} {
		if f.empty {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	return nil
}

// scalar unquotes an optional pair of double quotes and rejects empty values.
func scalar(v string) (string, error) {
	if strings.HasPrefix(v, `"`) {
		s, err := strconv.Unquote(v)
		if err != nil {
			return "", fmt.Errorf("bad quoted string %s", v)
		}
		v = s
	}
	if strings.TrimSpace(v) == "" {
		return "", fmt.Errorf("empty value")
	}
	return v, nil
}

// inlineList parses "[a, b]" (or "[]") into lab slugs.
func inlineList(v string) ([]string, error) {
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return nil, fmt.Errorf("want [slug, ...], got %q", v)
	}
	inner := strings.TrimSpace(v[1 : len(v)-1])
	if inner == "" {
		return nil, nil
	}
	var out []string
	for _, s := range strings.Split(inner, ",") {
		s = strings.TrimSpace(s)
		if !slugPattern.MatchString(s) {
			return nil, fmt.Errorf("bad lab slug %q", s)
		}
		out = append(out, s)
	}
	return out, nil
}
