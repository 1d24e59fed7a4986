package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"
)

// decodeJSON reads one JSON object, mapping oversize bodies to 413 and
// everything else that is wrong with the body to 400 with a reason in the
// client's terms (JSON field names and types, never Go's).
func decodeJSON(body io.Reader, v any) error {
	raw, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &APIError{Status: http.StatusRequestEntityTooLarge, Type: "invalid_request_error", Code: "request_too_large",
				Message: fmt.Sprintf("request body is larger than %d bytes", mbe.Limit)}
		}
		return BadRequest("", "reading request body: %v", err)
	}
	if err := checkEncoding(raw); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return describeJSONError(err)
	}
	if dec.More() {
		return BadRequest("", "request body has data after the JSON object")
	}
	return nil
}

// checkEncoding refuses what encoding/json would otherwise turn silently
// into U+FFFD or pass on as a control character: bytes that are not UTF-8,
// \u escapes naming half of a UTF-16 surrogate pair, and NUL (\u0000),
// which no prompt needs and which C-based tooling downstream truncates at.
// vLLM answers all three with 400.
func checkEncoding(raw []byte) error {
	if !utf8.Valid(raw) {
		off := 0
		for off < len(raw) {
			r, size := utf8.DecodeRune(raw[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return BadRequest("", "request body is not valid UTF-8 (first bad byte at offset %d)", off)
	}
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !inString {
			inString = c == '"'
			continue
		}
		if c == '"' {
			inString = false
			continue
		}
		if c != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // skip the escaped character, which may be a quote
			continue
		}
		r, ok := hex4(raw[i+2:])
		if !ok {
			continue // the decoder reports the malformed escape
		}
		switch {
		case r == 0:
			return BadRequest("", "request body has a NUL character (\\u0000) at offset %d: text may not contain NUL", i)
		case r >= 0xDC00 && r <= 0xDFFF:
			return BadRequest("", "request body has a lone UTF-16 surrogate \\u%04x at offset %d: it is not a character", r, i)
		case r >= 0xD800 && r <= 0xDBFF:
			if i+11 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
				if low, ok := hex4(raw[i+8:]); ok && low >= 0xDC00 && low <= 0xDFFF {
					i += 11
					continue
				}
			}
			return BadRequest("", "request body has a lone UTF-16 surrogate \\u%04x at offset %d: it is not a character", r, i)
		default:
			i += 5
		}
	}
	return nil
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// describeJSONError turns a decoder error into a 400 that speaks JSON:
// encoding/json's own text names Go structs and types.
func describeJSONError(err error) *APIError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return BadRequest("", "request body is not valid JSON: %s (at byte %d)", strings.TrimPrefix(syn.Error(), "json: "), syn.Offset)
	case errors.As(err, &typ):
		// Fields of the embedded struct carry its Go name as a prefix.
		field := strings.TrimPrefix(typ.Field, "rawCommon.")
		if field == "" {
			return BadRequest("", "request body must be a JSON object, not %s", typ.Value)
		}
		return BadRequest(field, "%s must be %s, not %s", field, jsonKind(typ.Type), typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return BadRequest("", "request body is not valid JSON: it is empty or ends inside the JSON object")
	default:
		return BadRequest("", "request body is not valid JSON for this endpoint")
	}
}

// jsonKind names a Go type the way the API documentation does.
func jsonKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "a valid value"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	default:
		return "a valid value"
	}
}
