package labs

import "testing"

func TestWhyNumberFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{sci(1.4e13), "1.40 × 10¹³"},
		{sci(6.03e8), "6.03 × 10⁸"},
		{sci(0), "0"},
		{Thousands(1000), "1,000"},
		{Thousands(3350), "3,350"},
		{Thousands(999), "999"},
		{Thousands(-12345), "-12,345"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestFormulaText(t *testing.T) {
	for _, tc := range []struct {
		name     string
		f        Formula
		measured float64
		want     string
	}{
		{"sum names the largest part", Sum("ms", Term{"guardrail", 80}, Term{"lookups", 120}, Term{"model first token", 600}, Term{"unused", 0}), 800,
			"guardrail 80 + lookups 120 + model first token 600 ≈ 800 ms. The largest part is model first token: 75% of it."},
		{"a gap is named", Formula{Expr: "prefill 104", Result: 104, Unit: "ms", Lead: "The prompt sets it", Remainder: "a queue"}, 150,
			"prefill 104 ≈ 104 ms. The prompt sets it. The run measured 150 ms; the other 46 ms is a queue."},
		{"an overshoot is not a negative rest", Formula{Expr: "(400 − 100) fewer tokens × 8.4 ms per token", Result: 2510, Unit: "ms", Remainder: "the two answers' different first tokens"}, 2361,
			"(400 − 100) fewer tokens × 8.4 ms per token ≈ 2,510 ms. The run measured 2,361 ms, 149 ms less than the terms add up to: the difference is the two answers' different first tokens."},
		{"the rest adds up as shown", Formula{Expr: "a 2,515", Result: 2515.4, Unit: "ms", Remainder: "the first tokens"}, 2361.6,
			"a 2,515 ≈ 2,515 ms. The run measured 2,362 ms, 153 ms less than the terms add up to: the difference is the first tokens."},
		{"a positive rest adds up as shown", Formula{Expr: "a 100", Result: 100.4, Unit: "ms", Remainder: "a queue"}, 150.6,
			"a 100 ≈ 100 ms. The run measured 151 ms; the other 51 ms is a queue."},
		{"rounding is not a gap", Formula{Expr: "a 10", Result: 10, Unit: "tok/s", Remainder: "a queue"}, 10.1,
			"a 10 ≈ 10 tok/s."},
		{"a tally keeps its zeros", Tally("requests", Term{"overall timeout", 0}, Term{"deadline", 3}), 3,
			"overall timeout 0 + deadline 3 ≈ 3 requests. The largest part is deadline: 100% of it."},
		{"nothing counted", Tally("requests", Term{"overall timeout", 0}, Term{"deadline", 0}), 0,
			"overall timeout 0 + deadline 0 ≈ 0 requests."},
		{"one of a count", Tally("requests", Term{"refused", 1}), 1, "refused 1 ≈ 1 request."},
		{"a share", Formula{Expr: "6 ÷ 20 × 100", Result: 30, Unit: "%"}, 30, "6 ÷ 20 × 100 ≈ 30%."},
		{"money", Formula{Expr: "tokens 1,000 × $2 per million", Result: 0.002, Unit: "$", Before: "Cost:", After: "A note."}, 0.002,
			"Cost: tokens 1,000 × $2 per million ≈ $0.002. A note."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.Text(tc.measured); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
