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
