// Package command holds what every command of the application layer
// (shared/service and shared/service/games) shares and the HTTP layer
// translates: a refusal that names its kind of failure without speaking
// HTTP (Error, Kind), and the write policy of every command — a whole step
// (read, decide, write under the versions read) rerun on the store's
// contention within a time budget (Retry), one event's steps run one at a
// time within this process (Sequenced).
//
// Where each concept lives:
//
//	command.go  Error, Kind and the refusals every command returns (NotFound, Forbidden …)
//	retry.go    Retry, Sequenced, Retryable, Backoff, Budget, Contended
package command

import "fmt"

// Kind is what a refusal is, which the HTTP layer turns into a status in
// one place (httpapi's toError): the application layer never names one.
type Kind int

// The kinds of refusal.
const (
	// Invalid is a request malformed on its face (400).
	Invalid Kind = iota + 1
	// Unauthorized is a request without a credential the server knows (401).
	Unauthorized
	// Forbidden is a known caller who may not do this (403).
	Forbidden
	// NotFound is a resource that does not exist (404).
	NotFound
	// Conflict is a request against a state that has moved on; Current
	// carries that state (409).
	Conflict
	// Refused is a valid request the rules refuse (422).
	Refused
	// Throttled is the store's throttling (429, Retry-After).
	Throttled
	// TooLarge is a request larger than the server takes (413).
	TooLarge
	// Unavailable is the server's own contention or failure, nothing changed (503, Retry-After).
	Unavailable
	// Upstream is another server's refusal or silence that this one's
	// request depended on (a mirror's target), nothing left running (502).
	Upstream
)

// Error is a refusal: its kind, the code clients switch on, a message
// naming the problem, the rule (shared/RULES.md id) it follows, the current
// state for a conflict and, for the server's own trouble, when to retry.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Rule    string
	// Params are what the message names, for a page that says the refusal
	// in its reader's language.
	Params     map[string]any
	Current    any
	RetryAfter int
}

// Error returns the code and message, for logs.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// NotFoundf is the refusal of a resource that does not exist; what names it.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Kind: NotFound, Code: "not_found", Message: fmt.Sprintf(format, args...) + " not found"}
}

// Forbid is the refusal of a caller who may not do this.
func Forbid(msg string) *Error { return &Error{Kind: Forbidden, Code: "forbidden", Message: msg} }

// Invalidf is the refusal of a field or value malformed on its face.
func Invalidf(code, format string, args ...any) *Error {
	return &Error{Kind: Invalid, Code: code, Message: fmt.Sprintf(format, args...)}
}

// BadRequest is the refusal of a request malformed on its face, with its code.
func BadRequest(code, msg string) *Error { return &Error{Kind: Invalid, Code: code, Message: msg} }

// ConflictWith is the refusal of a request against a state that has moved
// on, carrying that state so the client can resync.
func ConflictWith(msg string, current any) *Error {
	return &Error{Kind: Conflict, Code: "conflict", Message: msg, Current: current}
}
