package service

import (
	"strconv"
	"unicode/utf8"

	"github.com/xqtour/xqtour/shared/service/command"
)

// quote is a value a caller sent, quoted in a message.
func quote(s string) string { return strconv.Quote(s) }

// Clip is s cut to at most n bytes on a character boundary: what a message
// quotes of a caller's value, or a stored tag keeps.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// missingField is the refusal of a request without a field it needs.
func missingField(msg string) error { return command.BadRequest("missing_field", msg) }
