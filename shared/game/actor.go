package game

import (
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Role is who acts on a game (O-1).
type Role int8

// The roles. The public only reads, so it has no role here.
const (
	Player Role = iota
	Scribe
	Arbiter
	Organiser
)

var roleNames = [...]string{"player", "scribe", "arbiter", "organiser"}

// String returns the API name: "player", "scribe", "arbiter" or "organiser".
func (r Role) String() string {
	if r < 0 || int(r) >= len(roleNames) {
		return ""
	}
	return roleNames[r]
}

// withArticle returns the role with "a" or "an", for messages ("an arbiter").
func (r Role) withArticle() string {
	name := r.String()
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// ParseRole reads an API role name.
func ParseRole(s string) (Role, bool) {
	for i, n := range roleNames {
		if n == s {
			return Role(i), true
		}
	}
	return Player, false
}

// Actor is who asks for an operation. Side is the player's colour; a scribe
// acting for a player (draw offers, claims) names that player's side too. The
// HTTP layer has checked the token; the game checks what the role may do.
type Actor struct {
	Role Role
	Side xiangqi.Color
	// ID is who the token speaks for (an official's id, the event's for its
	// organiser), kept in the log of rulings; empty where none is known.
	ID string
}

// PlayerOf returns the actor for the player of side c.
func PlayerOf(c xiangqi.Color) Actor { return Actor{Role: Player, Side: c} }

// checkActsFor refuses officials other than the scribe (O-1: 书记员 records
// moves and presses for the board), and players of the side not concerned.
func checkActsFor(a Actor, c xiangqi.Color, what string) *RuleError {
	if _, err := playerSide(a, what); err != nil {
		return err
	}
	if a.Role == Player && a.Side != c {
		return refuse(CodeNotYourTurn, "C-1", "only %s may %s now", c, what)
	}
	return nil
}
