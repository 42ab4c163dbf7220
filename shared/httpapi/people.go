package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// People: the organiser corrects or takes back a registration before round
// 1, and reissues any token of the event — a player's, an official's, a
// captain's, or its own. A reissued token is shown once, only its hash is
// stored, and the old token stops working with the same write.

// playerEditIn is POST /tournaments/{tid}/players/{pid}: the fields to change.
type playerEditIn struct {
	Name   *string `json:"name"`
	Rating *int    `json:"rating"`
	Club   *string `json:"club"`
}

// POST /tournaments/{tid}/players/{pid} — organiser (O-1): correct a
// player's name, rating or club before round 1 is paired. The event item is
// rewritten with the player, so a pairing that read the old registration
// fails its condition and pairs again, and an edit after the pairing sees
// the round and is refused.
func (a *API) editPlayer(c *call) (int, any, error) {
	var in playerEditIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	cmd := service.EditPlayer{Player: c.r.PathValue("pid"), Edit: tournament.PlayerEdit{Name: in.Name, Rating: in.Rating, Club: in.Club}}
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), cmd)
	if err != nil {
		return 0, nil, err
	}
	p := res.(*tournament.Player)
	// Edits happen before round 1 only: the entry number is the number.
	return http.StatusOK, map[string]any{"player": playerView(p, p.Number)}, nil
}

// POST /tournaments/{tid}/players/{pid}/remove — organiser (O-1): take a
// registration back before round 1. The player item is deleted under the
// version read, with the event item rewritten, in one transaction: a
// pairing meanwhile makes this a refusal, a second removal a 404. The
// player's token stops working with it.
func (a *API) removePlayer(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), service.RemovePlayer{Player: c.r.PathValue("pid")})
	if err != nil {
		return 0, nil, err
	}
	rm := res.(service.PlayerChanged)
	// Removal happens before round 1 only: the entry number is the number.
	return http.StatusOK, map[string]any{"player": playerView(rm.Player, rm.Player.Number), "removed": true, "players": rm.T.Entrants()}, nil
}

// POST /tournaments/{tid}/players/{pid}/token — organiser: a new token for
// a player who lost theirs (or whose token leaked). Each of the player's
// games holds a copy of the hash, so a move costs one read; the games are
// rewritten with the player in one transaction, unfinished games first, so
// the old token opens nothing once the call returns. A move made meanwhile
// makes the transaction fail and the reissue run again on fresh items.
func (a *API) reissuePlayerToken(c *call) (int, any, error) {
	tid, pid := c.r.PathValue("tid"), c.r.PathValue("pid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.ReissuePlayerToken{Player: pid})
	if err != nil {
		return 0, nil, err
	}
	re := res.(service.PlayerReissued)
	token, p, number := re.Token, re.Player, re.Number
	return http.StatusOK, map[string]any{"id": pid, "token": token, "player": playerView(p, number)}, nil
}

// POST /tournaments/{tid}/officials/{oid}/token — organiser: a new token
// for an arbiter or scribe; the old one stops working.
func (a *API) reissueOfficialToken(c *call) (int, any, error) {
	oid := c.r.PathValue("oid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), service.ReissueToken{Kind: service.OfficialToken, ID: oid})
	if err != nil {
		return 0, nil, err
	}
	re := res.(service.Reissued)
	return http.StatusOK, map[string]any{"id": oid, "token": re.Token, "official": officialView(re.Item.(*tournament.Official))}, nil
}

// POST /tournaments/{tid}/teams/{mid}/token — organiser: a new captain's
// token for a team; the old one stops working.
func (a *API) reissueCaptainToken(c *call) (int, any, error) {
	tid, mid := c.r.PathValue("tid"), c.r.PathValue("mid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.ReissueToken{Kind: service.CaptainToken, ID: mid})
	if err != nil {
		return 0, nil, err
	}
	re := res.(service.Reissued)
	token, tm := re.Token, re.Item.(*tournament.Team)
	team, err := a.svc.CaptainRoster(c.ctx(), tid, tm)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"id": mid, "token": token, "team": team}, nil
}

// POST /tournaments/{tid}/token — organiser: rotate the organiser's own
// token. The event item holds its hash, so the write that stores the new
// hash is the one after which the old token is refused.
func (a *API) rotateOrganiserToken(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.RotateOrganiserToken{})
	if err != nil {
		return 0, nil, err
	}
	re := res.(service.Reissued)
	return http.StatusOK, map[string]any{"id": tid, "token": re.Token, "tournament": tournamentView(re.Item.(*tournament.Tournament))}, nil
}

// organiserEvent reads the event item and checks that the caller is its
// organiser (or its festival's, E-3): the first step of an organiser's
// read, before anything else is read.
func (a *API) organiserEvent(c *call, tid string) (*tournament.Tournament, service.Caller, error) {
	return a.svc.Authorise(c.ctx(), tid, a.eventCaller(c), service.Organiser)
}
