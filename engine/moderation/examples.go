package moderation

import (
	_ "embed"
	"fmt"
	"strings"
)

// policyData is the labelled lines; safeData adds safe text only.
var (
	//go:embed data/policy.tsv
	policyData string
	//go:embed data/safe.tsv
	safeData string
)

// The classifier's labels: one safe class and one per policy category.
const labelSafe = "safe"

var labelCategory = map[string]Category{
	"fraud":       PolicyFraud,
	"credentials": PolicyCredTheft,
	"abuse":       PolicyAbuse,
}

// Example is one labelled line of training text.
type Example struct {
	Label string // "safe", "fraud", "credentials" or "abuse"
	Text  string
}

// PolicyExamples parses the bundled training files (data/policy.tsv, then
// data/safe.tsv): one example a line, label and text separated by a tab;
// blank lines and "#" comments skipped.
func PolicyExamples() ([]Example, error) {
	ex, err := parseExamples(policyData)
	if err != nil {
		return nil, fmt.Errorf("policy.tsv: %w", err)
	}
	safe, err := parseExamples(safeData)
	if err != nil {
		return nil, fmt.Errorf("safe.tsv: %w", err)
	}
	return append(ex, safe...), nil
}

func parseExamples(data string) ([]Example, error) {
	var out []Example
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		label, text, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(text) == "" {
			return nil, fmt.Errorf("policy data line %d: want label<TAB>text", i+1)
		}
		if _, known := labelCategory[label]; !known && label != labelSafe {
			return nil, fmt.Errorf("policy data line %d: unknown label %q", i+1, label)
		}
		out = append(out, Example{Label: label, Text: text})
	}
	return out, nil
}
