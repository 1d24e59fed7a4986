package wire

import (
	"fmt"
	"net/http"
)

// APIError is an error the client sees, in OpenAI's shape: the HTTP status
// plus the fields of {"error": {"message", "type", "param", "code"}}.
type APIError struct {
	Status  int
	Message string
	Type    string
	Param   string // empty is sent as null
	Code    string // empty is sent as null
	// RetryAfter, when above 0, is sent as the Retry-After header (in
	// seconds) with a 429 or 503.
	RetryAfter int
}

// Error implements error.
func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message) }

// BadRequest is a 400 invalid_request_error about param.
func BadRequest(param, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Param: param, Message: fmt.Sprintf(format, args...)}
}
