package openaiapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// APIError is an error the client sees, in OpenAI's shape. Anything else a
// handler fails with becomes a generic 500 so internals do not leak.
type APIError struct {
	Status  int
	Message string
	Type    string
	Param   string // empty is sent as null
	Code    string // empty is sent as null
}

// Error implements error.
func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message) }

// errorBody is the JSON envelope {"error": {...}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func badRequest(param, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Param: param, Message: fmt.Sprintf(format, args...)}
}

// writeError maps err to a status and OpenAI error body.
func writeError(w http.ResponseWriter, err error) {
	var ae *APIError
	if !errors.As(err, &ae) {
		ae = &APIError{Status: http.StatusInternalServerError, Type: "server_error", Message: "internal error"}
	}
	body, _ := json.Marshal(errorBody{Error: errorDetail{
		Message: ae.Message, Type: ae.Type, Param: nullable(ae.Param), Code: nullable(ae.Code),
	}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ae.Status)
	_, _ = w.Write(append(body, '\n'))
}
