package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A broadcast delay (tournament.Settings.BroadcastDelaySeconds) holds the
// public reads of an event's games behind the play: GET /games/{gid} and
// its record show the game as it stood that many seconds ago (game.AsOf),
// so moves seen by spectators cannot be relayed back into the hall. A
// request bearing a token of the event — its players, officials or
// organiser — reads the game live. Standings and results are not delayed.
//
// Caching: a delayed answer is public (the same for every stranger, one
// second of edge cache as every game read); a live answer to an event's
// token is private and never stored, and both carry Vary: Authorization, so
// no cache hands one reader's answer to the other. CloudFront keys on
// Authorization anyway (infra/deploy), and the ETag is the body's hash, so a
// delayed and a live body never share a tag.

// cacheLive is the Cache-Control of a delayed game read live with an event token.
const cacheLive = "private, no-store"

// seenBy is the game as the request may see it at now, and the instant to
// read its clocks at: the game live for a game without a delay or a reader
// with a token of its event, else the game as it stood the delay ago.
func (a *API) seenBy(c *call, sg *games.Item, now int64) (*games.Item, int64) {
	d := sg.DelayMs()
	if d == 0 {
		return sg, now
	}
	c.vary = true
	if a.eventReader(c, sg) {
		c.cache = cacheLive
		return sg, now
	}
	return sg.AsOf(now - d), now - d
}

// eventReader reports whether the request bears a valid token of the
// game's event. Players are checked against the game item's hashes (no
// read); an official's or the organiser's token costs the read of its item.
// A missing, malformed, unknown or foreign token reads as the public does:
// the route is public, so a bad token is no error, only no privilege.
func (a *API) eventReader(c *call, sg *games.Item) bool {
	if c.r.Header.Get("Authorization") == "" || sg.Link.Tournament == "" {
		return false
	}
	if _, scope, _, err := bearer(c.r); err != nil || scope != sg.Link.Tournament {
		return false
	}
	// gameActor answers a principal once its token matched, even when that
	// one may not act on this game (a player of another board): every
	// token of the event reads live.
	_, p, _ := a.gameActor(c, sg)
	return p.Scope == sg.Link.Tournament
}

// setVary adds Vary: Authorization to a response whose body depends on the
// token, and Vary: Accept-Language to one written in the reader's language,
// so that neither a browser's cache nor a shared one hands a Chinese reader
// the English explanations someone else asked for.
func setVary(w http.ResponseWriter, c *call) {
	if c.vary {
		w.Header().Add("Vary", "Authorization")
	}
	if c.varyLanguage {
		w.Header().Add("Vary", "Accept-Language")
	}
}

// broadcastIn is POST /tournaments/{tid}/broadcast.
type broadcastIn struct {
	BroadcastDelaySeconds *int `json:"broadcastDelaySeconds"`
}

// POST /tournaments/{tid}/broadcast — organiser (O-1): set the broadcast
// delay before round 1 is paired. The event item is written under the
// version read, so a pairing that read the old delay fails its condition
// and pairs again with the new one, and a change after the pairing sees the
// round and is refused (422 broadcast_fixed).
func (a *API) setBroadcast(c *call) (int, any, error) {
	var in broadcastIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	t, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), service.SetBroadcast{Seconds: in.BroadcastDelaySeconds})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"tournament": tournamentView(t.(*tournament.Tournament))}, nil
}
