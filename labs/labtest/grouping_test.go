package labtest

import (
	"slices"
	"testing"
)

func TestUngroupedNumbers(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Complete: 1000 tokens in 4.2 s.", []string{"1000"}},
		{"Generating: 1500 of 16000 tokens", []string{"1500", "16000"}},
		{"Complete: 1,000 tokens in 4.2 s.", nil},
		{"(8192 tokens)", []string{"8192"}},
		{"2000 tokens", []string{"2000"}}, // a count, though it could be a year
		{"12345.6 ms", []string{"12345"}},
		{"a loss of -2500 ms", []string{"2500"}},
		{"$1250 a month", []string{"1250"}},
		{"999 ms, 100 tokens, p95, p999", nil},
		{"0.0125 s per token, 3.14159", nil},
		{"llama-3.1-8b on h100-sxm, Llama-3.1-70B on H200, RTX4090", nil},
		{"llama-3.1-8b on mi300x", nil},
		{"order NW-10452, call 1-800-555-0142", nil},
		{"run #1042, 127.0.0.1:8080, /labs/x/runs/1234, ?seed=4242", nil},
		{"as published in 2024.", nil},
		{"In 2023 Prices rose", nil},
		{"4096MiB", nil},
		{"1000", []string{"1000"}},
	} {
		if got := UngroupedNumbers(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("UngroupedNumbers(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
