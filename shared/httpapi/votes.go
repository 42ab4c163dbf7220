package httpapi

import "github.com/xqtour/xqtour/shared/service"

// Sealed repetition votes (G-6; 000 ch.8 请裁制度): each of the three
// arbiters posts their own vote from their own device, and the game's view
// says only how many are in and who has voted until the third arrives; then
// the ruling is made and the view shows every vote with who cast it and why
// (service.GameVote). POST /games/{gid}/rulings with kind "repetition" and
// three votes stays for a pad that collects all three at one table.

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
	return a.playGame(c, service.GameVote(in))
}
