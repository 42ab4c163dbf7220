package httpapi

import "github.com/xqtour/xqtour/shared/service"

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
	return a.playGame(c, service.GameAdjourn(in))
}

// POST /games/{gid}/resume — the table's scribe or an official resumes an
// adjourned game (C-7, 续赛).
func (a *API) resume(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameResume{})
}
