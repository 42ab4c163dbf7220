package httpapi

import (
	"strconv"
	"strings"
)

func quote(s string) string { return strconv.Quote(s) }

func join(names []string) string { return strings.Join(names, ", ") }
