package httpapi

import (
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
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
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if by.Role == game.Player || by.Role == game.Scribe {
			return forbidden("only an arbiter votes on a repetition (O-1, G-6)")
		}
		if len(sg.Game.Log()) >= service.LimitOf(service.CapGameLog).Max {
			return service.OverLimit(service.CapGameLog)
		}
		side, err := parseColor("side", in.Side)
		if err != nil {
			return err
		}
		return sg.Game.Vote(c.nowMs(), by, side, in.Note)
	})
}
