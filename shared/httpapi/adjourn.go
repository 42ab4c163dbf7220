package httpapi

import (
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/games"
)

// POST /games/{gid}/adjourn — the player to move, the table's scribe or an
// official seals the next move and adjourns the game (C-7, 封棋).
func (a *API) adjourn(c *call) (int, any, error) {
	var in struct {
		Move string `json:"move"`
		Ply  *int   `json:"ply"`
	}
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if in.Move == "" || in.Ply == nil {
			return badRequest("invalid_field", "move and ply are required: the sealed move, and the moves already played as the client saw them (C-7)")
		}
		if by.Role == game.Scribe {
			by.Side = sg.Game.Position().SideToMove()
		}
		return sg.Game.Adjourn(c.nowMs(), by, in.Move, *in.Ply)
	})
}

// POST /games/{gid}/resume — the table's scribe or an official resumes an
// adjourned game: the sealed move is played and the opponent's clock runs
// (C-7, 续赛).
func (a *API) resume(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		return sg.Game.Resume(c.nowMs(), by)
	})
}
