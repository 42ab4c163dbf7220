package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// POST /tournaments/{tid}/players/{pid}/pause — organiser (S-6): the player
// is not paired from the next round on; missed rounds score nothing.
func (a *API) pausePlayer(c *call) (int, any, error) {
	return a.changePlayer(c, (*tournament.Tournament).Pause)
}

// POST /tournaments/{tid}/players/{pid}/resume — organiser (S-6): a paused
// player is paired again from the next round.
func (a *API) resumePlayer(c *call) (int, any, error) {
	return a.changePlayer(c, (*tournament.Tournament).Resume)
}

// changePlayer applies an organiser's change of a player's status
// (withdraw, pause, resume: service.PlayerStatus, which says why a lost
// race is a 409 with the player as it now is).
func (a *API) changePlayer(c *call, change func(*tournament.Tournament, *tournament.Player) error) (int, any, error) {
	tid, pid := c.r.PathValue("tid"), c.r.PathValue("pid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.PlayerStatus{Player: pid, Change: change})
	view := func(ch service.PlayerChanged) (any, error) {
		out, err := a.shownPlayer(c.ctx(), ch.T, ch.Player)
		return map[string]any{"player": out}, err
	}
	if err != nil {
		return 0, nil, renderCurrent(err, view)
	}
	out, err := view(res.(service.PlayerChanged))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, out, nil
}
