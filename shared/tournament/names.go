package tournament

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanName trims a display name and checks it: 1 to max bytes of valid
// UTF-8 with no control or format characters. Names reach standings, PGN
// records and CSV files; a NUL or a bidi override (U+202E) would let one name
// disguise itself as another there.
func cleanName(field, name string, max int) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > max {
		return "", &FieldError{Field: field, Message: fmt.Sprintf("must be 1 to %d characters", max)}
	}
	if !utf8.ValidString(name) {
		return "", &FieldError{Field: field, Message: "must be valid UTF-8"}
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "", &FieldError{Field: field, Message: fmt.Sprintf("must not contain the control or format character %U", r)}
		}
	}
	return name, nil
}
