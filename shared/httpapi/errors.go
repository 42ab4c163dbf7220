package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/rulebook"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Error is an API error: a status and the JSON body of the OpenAPI document. Current, when
// set, carries the current state with a 409 so the client can resync.
type Error struct {
	Status     int
	Code       string
	Message    string
	Rule       string
	Params     map[string]any
	Current    any
	RetryAfter int
}

// Error returns the code and message, for logs.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Rule    string `json:"rule,omitempty"`
		// Params are what the message names, for a page that says the
		// refusal in its reader's language (rulebook.RuleError.Params).
		Params map[string]any `json:"params,omitempty"`
	} `json:"error"`
	Current any `json:"current,omitempty"`
}

func badRequest(code, msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: code, Message: msg}
}

func notFound(what string) *Error {
	return &Error{Status: http.StatusNotFound, Code: "not_found", Message: what + " not found"}
}

// refusalStatus maps the core's refusal codes that are not 422 to their
// statuses; every other code of a *rulebook.RuleError (illegal_move,
// not_your_turn, game_over, registration_closed, lineup_size, …) is a valid
// request the rules refuse: 422.
var refusalStatus = map[string]int{
	game.CodeForbidden:       http.StatusForbidden,
	game.CodeStalePly:        http.StatusConflict,
	game.CodeInvalidArgument: http.StatusBadRequest,
}

// kindStatus is the status of each kind of the application layer's refusals.
var kindStatus = map[command.Kind]int{
	command.Invalid:      http.StatusBadRequest,
	command.Unauthorized: http.StatusUnauthorized,
	command.Forbidden:    http.StatusForbidden,
	command.NotFound:     http.StatusNotFound,
	command.Conflict:     http.StatusConflict,
	command.Refused:      http.StatusUnprocessableEntity,
	command.Throttled:    http.StatusTooManyRequests,
	command.TooLarge:     http.StatusRequestEntityTooLarge,
	command.Unavailable:  http.StatusServiceUnavailable,
	command.Upstream:     http.StatusBadGateway,
}

// toError maps any error to the API error model, in this one place.
func toError(err error) *Error {
	var e *Error
	var fe *tournament.FieldError
	var ce *clock.ControlError
	var re *rulebook.RuleError
	var ce2 *command.Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.As(err, &ce2):
		return &Error{Status: kindStatus[ce2.Kind], Code: ce2.Code, Message: ce2.Message, Rule: ce2.Rule, Params: ce2.Params, Current: ce2.Current, RetryAfter: ce2.RetryAfter}
	case errors.As(err, &re):
		status := refusalStatus[re.Code]
		if status == 0 {
			status = http.StatusUnprocessableEntity
		}
		return &Error{Status: status, Code: re.Code, Message: re.Message, Rule: re.Rule, Params: re.Params}
	case errors.As(err, &fe):
		return &Error{Status: http.StatusBadRequest, Code: "invalid_field", Message: fe.Error(), Rule: fe.Rule}
	case errors.As(err, &ce):
		return &Error{Status: http.StatusBadRequest, Code: "invalid_field", Message: "timeControl." + ce.Error(), Rule: ce.Rule}
	case errors.Is(err, store.ErrNotFound):
		return notFound("resource")
	case errors.Is(err, store.ErrOutcomeUnknown):
		// Before ErrConflict, which it may wrap: the write may have been
		// applied, so this is no conflict the client could resolve.
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "the store did not confirm the change; retry shortly with the same Idempotency-Key", RetryAfter: 1}
	case errors.Is(err, store.ErrConflict):
		return &Error{Status: http.StatusConflict, Code: "conflict", Message: "the resource changed meanwhile; reload and retry"}
	case errors.Is(err, store.ErrThrottled):
		return &Error{Status: http.StatusTooManyRequests, Code: "throttled", Message: "the store is busy; retry shortly", RetryAfter: 1}
	case errors.Is(err, store.ErrUnavailable):
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "the store is unavailable; retry shortly", RetryAfter: 1}
	case errors.Is(err, store.ErrKeyInUse):
		return &Error{Status: http.StatusConflict, Code: "request_in_progress", Message: "a request with this Idempotency-Key is still being served", RetryAfter: 1}
	}
	return &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "internal error"}
}

// renderCurrent puts the view of the state a conflict of the application
// layer carries (a core value, service.Reporter) in its place.
func renderCurrent[T any](err error, view func(T) (any, error)) error {
	var ce *command.Error
	if !errors.As(err, &ce) || ce.Kind != command.Conflict {
		return err
	}
	if cur, ok := ce.Current.(T); ok {
		ce.Current = nil
		if v, verr := view(cur); verr == nil {
			ce.Current = v
		}
	}
	return err
}

func writeError(w http.ResponseWriter, log *slog.Logger, err error) int {
	e := toError(err)
	if e.Status >= 500 {
		log.Error("request failed", "err", err.Error())
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	var body errorBody
	body.Error.Code, body.Error.Message, body.Error.Rule, body.Error.Params = e.Code, escapeControls(e.Message), e.Rule, e.Params
	body.Current = e.Current
	writeJSON(w, e.Status, body)
	return e.Status
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// escapeControls writes control and bidirectional-formatting characters of
// a message as \u escapes: messages quote what callers sent (ids, names,
// notes, FEN), and such a character would reorder or hide the text around
// it wherever the message is shown or logged.
func escapeControls(msg string) string {
	if !strings.ContainsFunc(msg, isControl) {
		return msg
	}
	var b strings.Builder
	for _, r := range msg {
		if isControl(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError
}
