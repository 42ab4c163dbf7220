package game

import (
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Role is who acts on a game (O-1).
type Role int8

// The roles. The public only reads, so it has no role here. ChiefArbiter
// (裁判长) comes last so that the roles stored in game logs keep their values.
const (
	Player Role = iota
	Scribe
	Arbiter
	Organiser
	ChiefArbiter
)

var roleNames = [...]string{"player", "scribe", "arbiter", "organiser", "chiefArbiter"}

// String returns the API name: "player", "scribe", "arbiter", "organiser"
// or "chiefArbiter".
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

// rules reports whether r rules on games: an arbiter (巡回裁判员), the chief
// arbiter, or the organiser, who may act as chief arbiter in a small event.
func (r Role) rules() bool { return r == Arbiter || r == ChiefArbiter || r == Organiser }

// chief reports whether r has the chief arbiter's powers (000 ch.3 裁判长 7:
// 裁判长有权作出"取消当场比赛资格"的处分决定, and 除名 is the chief arbiter's
// to propose): the chief arbiter, or the organiser acting as one.
func (r Role) chief() bool { return r == ChiefArbiter || r == Organiser }

// records reports whether r may record a foul, a warning or a dropped piece:
// whoever rules, and the board's scribe (000 ch.3 书记员 4 提醒并记录运动员的
// 违规行为; ch.4 凡判处"犯规",书记员应当当场明确宣布并及时记录).
func (r Role) records() bool { return r.rules() || r == Scribe }

// MayRecordResult refuses a role that may not record a result (O-1). The
// game's own RecordResult checks it; a caller checks it first too, before
// it reads its request's fields, so a player learns nothing of them.
func MayRecordResult(by Actor) error {
	if !by.Role.records() {
		return refuse(CodeForbidden, "O-1", "only an arbiter, the scribe or the organiser records a result")
	}
	return nil
}

// MayLoadRecord refuses a role that may not load a game's record (O-1), as
// MayRecordResult does for results.
func MayLoadRecord(by Actor) error {
	if by.Role != Arbiter && by.Role != ChiefArbiter && by.Role != Scribe {
		return refuse(CodeForbidden, "O-1", "only an arbiter or the table's scribe loads a record")
	}
	return nil
}

// MayRule refuses a player, who gives no ruling of any kind (O-1); which
// official may give which is Rule's to say.
func MayRule(by Actor) error {
	if by.Role == Player {
		return refuse(CodeForbidden, "O-1", "only an official rules")
	}
	return nil
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
