package openaiapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/latencylab/latencylab/engine/openaiapi/wire"
)

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

// APIError is the wire package's client-visible error, re-exported where
// handlers build one.
type APIError = wire.APIError

func badRequest(param, format string, args ...any) *APIError {
	return wire.BadRequest(param, format, args...)
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
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
	}
	w.WriteHeader(ae.Status)
	_, _ = w.Write(append(body, '\n'))
}
