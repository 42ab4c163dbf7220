package httpapi

import (
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Sealed repetition votes (G-6; 000 ch.8 请裁制度): each of the three
// arbiters posts their own vote from their own device, and the game's view
// says only how many are in and who has voted until the third arrives; then
// the ruling is made and the view shows every vote with who cast it and why.
// POST /games/{gid}/rulings with kind "repetition" and three votes stays for
// a pad that collects all three at one table.

type voteIn struct {
	Side string `json:"side"`
	Note string `json:"note"`
}

// POST /games/{gid}/votes — an arbiter's sealed vote on a pending repetition.
func (a *API) vote(c *call) (int, any, error) {
	var in voteIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.mutateGame(c, func(sg *storedGame, by game.Actor) error {
		if by.Role == game.Player || by.Role == game.Scribe {
			return forbidden("only an arbiter votes on a repetition (O-1, G-6)")
		}
		if len(sg.Game.Log()) >= limitOf(capGameLog).Max {
			return overLimit(capGameLog)
		}
		side, err := parseColor("side", in.Side)
		if err != nil {
			return err
		}
		return sg.Game.Vote(c.nowMs(), by, side, in.Note)
	})
}

// votesOut is the sealed vote's state on a pending repetition: how many of
// the three are in and which officials cast them, never their sides.
type votesOut struct {
	Cast   int      `json:"cast"`
	Needed int      `json:"needed"`
	By     []string `json:"by"`
}

// voteOut is one arbiter's vote, shown once the ruling is made.
type voteOut struct {
	At   string `json:"at"`
	By   string `json:"by"`
	ByID string `json:"byId,omitempty"`
	Side string `json:"side"`
	Note string `json:"note,omitempty"`
}

// repetitionRulingOut is the repetition ruling in the game's log: the three
// verdicts, the side that lost, who ruled and, when the arbiters voted from
// their own devices, each vote.
type repetitionRulingOut struct {
	At    string    `json:"at"`
	By    string    `json:"by"`
	ByID  string    `json:"byId,omitempty"`
	Votes []string  `json:"votes"`
	Loser string    `json:"loser"`
	Note  string    `json:"note,omitempty"`
	Cast  []voteOut `json:"cast"`
}

// votesView reads the sealed votes and the ruling from the game's log.
func votesView(g *game.Game) (*votesOut, *repetitionRulingOut) {
	cast := g.SealedVotes()
	var ruling *repetitionRulingOut
	for _, e := range g.Log() {
		if e.Ruling.Kind != game.RulingRepetition {
			continue
		}
		r := &repetitionRulingOut{At: rfc3339(e.At), By: e.By.Role.String(), ByID: e.By.ID, Note: e.Ruling.Note, Cast: []voteOut{}}
		red := 0
		for _, v := range e.Ruling.Votes {
			r.Votes = append(r.Votes, v.String())
			if v == xiangqi.Red {
				red++
			}
		}
		r.Loser = "black"
		if red >= 2 {
			r.Loser = "red"
		}
		ruling = r
	}
	if ruling != nil {
		for _, e := range cast {
			ruling.Cast = append(ruling.Cast, voteOut{At: rfc3339(e.At), By: e.By.Role.String(), ByID: e.By.ID, Side: e.Ruling.Side.String(), Note: e.Ruling.Note})
		}
		return nil, ruling
	}
	if g.Status() != game.PendingRuling && len(cast) == 0 {
		return nil, nil
	}
	out := &votesOut{Cast: len(cast), Needed: game.RepetitionVoters, By: []string{}}
	for _, e := range cast {
		out.By = append(out.By, e.By.ID)
	}
	return out, nil
}
