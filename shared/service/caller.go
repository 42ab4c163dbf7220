package service

import (
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/service/command"
)

// Role is what a token lets its holder do (O-1): the one list of roles,
// which the HTTP layer's route table and tokens use.
type Role = string

// The roles (untyped, so the HTTP layer's route table names them in its
// own Role type).
const (
	Organiser    = "organiser"
	Arbiter      = "arbiter"
	ChiefArbiter = "chiefArbiter" // 裁判长
	Scribe       = "scribe"
	Player       = "player"
	Captain      = "captain"
)

// Caller is who a request speaks for, as the HTTP layer derived it from the
// bearer token: the event (or standalone game) the token belongs to, the
// principal inside it, its role and, for a scribe, the tables it keeps.
type Caller struct {
	Scope  string
	ID     string
	Role   Role
	Tables []int
}

// May checks that c belongs to scope with one of roles (O-1): a token of
// another event, or of a role the command does not name, is refused.
func (c Caller) May(scope string, roles ...Role) error {
	if c.Scope != scope {
		return command.Forbid("this token belongs to another event or game")
	}
	if !slices.Contains(roles, c.Role) {
		return command.Forbid("the " + c.Role + "'s token may not do this; it needs: " + strings.Join(roles, " or "))
	}
	return nil
}
