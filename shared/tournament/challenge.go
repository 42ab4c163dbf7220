package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"

	"github.com/xqtour/xqtour/shared/result"
)

// What a drawn challenge does (S-8; the rule books are silent, so the event
// says): ChallengeDrawHolder keeps the ring with the holder, the default;
// ChallengeDrawChallenger passes it to the challenger.
const (
	ChallengeDrawHolder     = "holder"
	ChallengeDrawChallenger = "challenger"
)

// CodeNoChallenger refuses pairing a challenge round while nobody waits to
// challenge: the organiser registers the next challenger first.
const CodeNoChallenger = "no_challenger"

// Challenge is one challenge of a ring (擂台赛): who held the ring, who
// challenged, the game and who holds the ring after it.
type Challenge struct {
	Round        int
	Challenger   string
	HolderBefore string
	Red, Black   string
	GameID       string
	// Result is result.None while the game is played.
	Result result.Result
	// HolderAfter is "" while the game is played.
	HolderAfter string
}

// Ring is a challenge event's state: the first defender, the holder now,
// every challenge in order and the challengers still waiting, in order.
// DefendingTeam is the defending team's members in their order of defence
// when a team holds the ring (Settings.ChallengeTeam), else nil.
type Ring struct {
	Defender      string
	Holder        string
	Challenges    []Challenge
	Waiting       []string
	DefendingTeam []string
}

// MaxChallengeTeam bounds a defending team's members (S-8).
const MaxChallengeTeam = 50

// challengeOrder is the registration order of the players: the first is the
// defender (守擂方), the others challenge one at a time in that order (攻擂方,
// 000 ch.5 item 7: any number of them).
func challengeOrder(h *History) []*Player {
	ps := append([]*Player(nil), h.Players...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Number < ps[j].Number })
	return ps
}

// RingOf replays a challenge event's rounds (S-8). While the last
// challenge is played, Holder is "".
func RingOf(t *Tournament, h *History) (Ring, error) {
	if t.Settings.System != ChallengeSystem {
		return Ring{}, &RuleError{Code: CodeSystemNotSupported, Message: "only a challenge event has a ring", Rule: "S-8"}
	}
	order := challengeOrder(h)
	var ring Ring
	if len(order) == 0 {
		return ring, nil
	}
	ring.Defender, ring.Holder = order[0].ID, order[0].ID
	challenged := map[string]bool{order[0].ID: true}
	// 000 ch.5 item 7 守擂方可是个人，也可是团体: a defending team's members
	// defend in registration order; one who loses the ring is out and the
	// next takes it, until the last has lost it.
	team := map[string]int{} // member → order of defence
	if k := min(t.Settings.ChallengeTeam, len(order)); k > 1 {
		for i, p := range order[:k] {
			ring.DefendingTeam = append(ring.DefendingTeam, p.ID)
			team[p.ID] = i
			challenged[p.ID] = true
		}
	}
	for i, r := range h.Rounds {
		if len(r.Pairings) != 1 {
			return Ring{}, fmt.Errorf("challenge round %d has %d games", r.Number, len(r.Pairings))
		}
		p := r.Pairings[0]
		if ring.Holder == "" || (p.Red != ring.Holder && p.Black != ring.Holder) {
			return Ring{}, fmt.Errorf("challenge round %d does not seat the ring's holder", r.Number)
		}
		c := Challenge{Round: r.Number, HolderBefore: ring.Holder, Red: p.Red, Black: p.Black, GameID: p.GameID, Challenger: p.Red}
		if p.Red == ring.Holder {
			c.Challenger = p.Black
		}
		challenged[c.Challenger] = true
		if res, ok := h.Result(r.Number, p); ok {
			c.Result = res.Result
			c.HolderAfter = ringHolderAfter(t, c)
			if at, member := team[c.HolderBefore]; member && c.HolderAfter == c.Challenger {
				c.HolderAfter = nextDefender(h, ring.DefendingTeam, at, c.Challenger)
			}
		} else if i != len(h.Rounds)-1 {
			return Ring{}, fmt.Errorf("challenge round %d is undecided, yet round %d was paired", r.Number, r.Number+1)
		}
		ring.Holder = c.HolderAfter // "" while the last challenge is played
		ring.Challenges = append(ring.Challenges, c)
	}
	for _, p := range order {
		if !challenged[p.ID] && p.Status == Active {
			ring.Waiting = append(ring.Waiting, p.ID)
		}
	}
	return ring, nil
}

// nextDefender is who holds the ring after the defending team's member at
// position at lost it: the next member still in the event, or, when none is
// left, the challenger who beat the last.
func nextDefender(h *History, team []string, at int, challenger string) string {
	for _, id := range team[at+1:] {
		if p := h.Player(id); p != nil && p.Status == Active {
			return id
		}
	}
	return challenger
}

// ringHolderAfter applies a challenge's result: the winner holds the ring;
// a forfeit is a win; a draw goes as the event says (default: the holder
// keeps it); a double forfeit leaves it with the holder.
func ringHolderAfter(t *Tournament, c Challenge) string {
	switch c.Result {
	case result.RedWins, result.RedByForfeit:
		return c.Red
	case result.BlackWins, result.BlackByForfeit:
		return c.Black
	case result.Draw:
		if t.Settings.ChallengeDraw == ChallengeDrawChallenger {
			return c.Challenger
		}
	}
	return c.HolderBefore
}

// pairChallenge pairs the next challenge (S-8): the holder against the
// first challenger waiting, once the last challenge is decided. Colours are
// drawn by lot (000 ch.2 §4 第1条: a one-game match 猜先), reproducibly
// from the event id and the round. A challenge event with a set number of
// rounds is complete after that many challenges; an open one waits for the
// organiser to register the next challenger.
func pairChallenge(t *Tournament, h *History, n int, gameID GameIDFunc) (*Round, error) {
	if t.Settings.Rounds > 0 && n > t.Settings.Rounds {
		return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("all %d challenges are played", t.Settings.Rounds), Rule: "S-8"}
	}
	ring, err := RingOf(t, h)
	if err != nil {
		return nil, err
	}
	if ring.Defender == "" {
		return nil, &RuleError{Code: CodeTooFewPlayers, Message: "register the defender, then the challengers in the order they challenge", Rule: "S-8"}
	}
	if ring.Holder == "" {
		last := ring.Challenges[len(ring.Challenges)-1]
		return nil, &RuleError{Code: CodeRoundUnfinished, Message: fmt.Sprintf("challenge %d (game %s) is not decided: the next challenger meets its winner", last.Round, last.GameID), Rule: "S-8"}
	}
	if h.Player(ring.Holder).Status != Active {
		return nil, &RuleError{Code: CodeNoPairing, Message: "the ring's holder has withdrawn or is paused: the ring has no defender", Rule: "S-8"}
	}
	if len(ring.Waiting) == 0 {
		return nil, &RuleError{Code: CodeNoChallenger, Message: "no challenger is waiting: register the next challenger first", Rule: "S-8"}
	}
	challenger := ring.Waiting[0]
	red, black := ring.Holder, challenger
	why := "lot: the holder has red"
	if challengeLot(t.ID, n) {
		red, black = challenger, ring.Holder
		why = "lot: the challenger has red"
	}
	r := &Round{Pairings: []Pairing{{Table: 1, Red: red, Black: black, GameID: gameID(n, 1, 1)}},
		Explanations: []Explanation{{Opponent: "the ring's holder meets the next challenger in registration order (S-8)", ColourReason: why}}}
	return r, nil
}

// challengeLot is the reproducible lot for round n's colours: the first bit
// of SHA-256("challenge/<event id>/<round>"); true gives the challenger red.
func challengeLot(tid string, n int) bool {
	sum := sha256.Sum256([]byte("challenge/" + tid + "/" + strconv.Itoa(n)))
	return binary.BigEndian.Uint16(sum[:2])&1 == 1
}

// normalizeChallenge checks the ring's settings (S-8): the defender an
// individual or a team of the first ChallengeTeam players (000 ch.5 item 7:
// 守擂方可是个人，也可是团体。攻擂方以个人形式出现), and the drawn-challenge rule.
func (s *Settings) normalizeChallenge() error {
	if s.System != ChallengeSystem {
		if s.ChallengeDraw != "" {
			return &FieldError{Field: "challengeDraw", Message: "only a challenge event has a ring", Rule: "S-8"}
		}
		if s.ChallengeTeam != 0 {
			return &FieldError{Field: "challengeTeam", Message: "only a challenge event has a defending team", Rule: "S-8"}
		}
		return nil
	}
	if s.Teams {
		return &FieldError{Field: "teams", Message: "a challenge event's challengers are individuals (攻擂方以个人形式出现); a defending team is the first challengeTeam players registered", Rule: "S-8"}
	}
	if s.ChallengeTeam < 0 || s.ChallengeTeam == 1 || s.ChallengeTeam > MaxChallengeTeam {
		return &FieldError{Field: "challengeTeam", Message: fmt.Sprintf("a defending team has 2 to %d members (0: an individual defends)", MaxChallengeTeam), Rule: "S-8"}
	}
	switch s.ChallengeDraw {
	case "":
		s.ChallengeDraw = ChallengeDrawHolder
	case ChallengeDrawHolder, ChallengeDrawChallenger:
	default:
		return &FieldError{Field: "challengeDraw", Message: fmt.Sprintf("unknown rule %q (want holder or challenger)", s.ChallengeDraw), Rule: "S-8"}
	}
	return nil
}
