package httpapi

import (
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
)

func quote(s string) string { return strconv.Quote(s) }

// clip shortens what a caller sent for quoting in a message (service.Clip).
func clip(s string, n int) string { return service.Clip(s, n) }

func join(names []string) string { return strings.Join(names, ", ") }
