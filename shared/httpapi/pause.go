package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/store"
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

// changePlayer applies an organiser's change of a player's status (withdraw,
// pause, resume). The event item is rewritten with the player, advancing its
// version, so the race with a pairing is lost by whichever writes second: a
// round paired meanwhile makes this a 409, and a pairing that read the old
// status fails its condition on the event and pairs again (S-6).
func (a *API) changePlayer(c *call, change func(*tournament.Tournament, *tournament.Player) error) (int, any, error) {
	tid, pid := c.r.PathValue("tid"), c.r.PathValue("pid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	t, meta, err := a.loadTournament(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	if _, err := a.requireRole(c, tid, organiserKnown(t), roleOrganiser); err != nil {
		return 0, nil, err
	}
	p, rec, err := a.loadPlayer(c.ctx(), tid, pid)
	if err != nil {
		return 0, nil, err
	}
	if err := change(t, p); err != nil {
		return 0, nil, err
	}
	if err := a.store.Transact(c.ctx(), []*store.Record{encode(rec, p), encode(meta, t)}); err != nil {
		return 0, nil, conflictWith(err, func() (any, error) {
			p, _, err := a.loadPlayer(c.ctx(), tid, pid)
			if err != nil {
				return nil, err
			}
			out, err := a.shownPlayer(c.ctx(), t, p)
			return map[string]any{"player": out}, err
		})
	}
	out, err := a.shownPlayer(c.ctx(), t, p)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"player": out}, nil
}
