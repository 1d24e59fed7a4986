package labs

import "testing"

func TestWhyNumberFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{sci(1.4e13), "1.40 × 10¹³"},
		{sci(6.03e8), "6.03 × 10⁸"},
		{sci(0), "0"},
		{groupDigits(1000), "1,000"},
		{groupDigits(3350), "3,350"},
		{groupDigits(999), "999"},
		{groupDigits(-12345), "-12,345"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
