package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"rsc.io/qr"
)

// codeAlphabet leaves out the characters that read alike (0/O, 1/I), so a
// code read off a projector is typed right. Its 32 symbols divide 256
// evenly, so every symbol is equally likely.
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// codeLen is a join code's length: 32^6, about a billion codes.
const codeLen = 6

// newWorkshopCode draws a random join code.
func newWorkshopCode() string {
	b := make([]byte, codeLen)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b)
}

// normalizeCode reads a typed code: case, spaces and dashes do not matter.
func normalizeCode(s string) string {
	return strings.NewReplacer(" ", "", "-", "").Replace(strings.ToUpper(strings.TrimSpace(s)))
}

// validCode reports a string that could be a join code.
func validCode(s string) bool {
	if len(s) != codeLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(codeAlphabet, rune(s[i])) {
			return false
		}
	}
	return true
}

// newInstructorSecret is 128 random bits, URL-safe.
func newInstructorSecret() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashSecret is what the store keeps of a secret. A fast hash is enough: a
// 128-bit random secret cannot be found by guessing, however fast.
func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// secretMatches compares a presented secret with the stored hash in
// constant time.
func secretMatches(secret, storedHash string) bool {
	want, err := hex.DecodeString(storedHash)
	if err != nil || secret == "" {
		return false
	}
	got := sha256.Sum256([]byte(secret))
	return subtle.ConstantTimeCompare(got[:], want) == 1
}

// joinQR draws link as a QR code, a PNG in a data: URL (the CSP allows
// data: images); "" if it cannot, and the board shows the code alone.
func joinQR(link string) string {
	code, err := qr.Encode(link, qr.M)
	if err != nil {
		return ""
	}
	code.Scale = 4
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(code.PNG())
}
