package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Check-in (E-2): in an event created with "checkIn": true, a round pairs
// only the players checked in for it. A check-in writes the player's item
// alone, under the condition that the event item is unchanged: a pairing
// of the round meanwhile rewrites the event item, so a check-in that raced
// it fails its condition, runs again, and is refused as too late instead
// of being told it counted. Check-ins do not rewrite the event item, so a
// hall of players checking in at once do not queue on it.

// checkInIn is POST /tournaments/{tid}/rounds/{n}/checkin: the player, when
// the organiser or an arbiter checks one in at the desk.
type checkInIn struct {
	Player string `json:"player"`
}

func roundParam(c *call) (int, error) {
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 || n > 999 {
		return 0, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	return n, nil
}

// POST /tournaments/{tid}/rounds/{n}/checkin — the player (their own), or
// the organiser or an arbiter for a player (E-2).
func (a *API) checkIn(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := roundParam(c)
	if err != nil {
		return 0, nil, err
	}
	var in checkInIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.CheckIn{N: n, Player: in.Player})
	if err != nil {
		return 0, nil, err
	}
	p := res.(*tournament.Player)
	return http.StatusOK, map[string]any{"round": n, "checkedIn": true, "player": playerView(p, p.Number)}, nil
}

// deskRow is one player of the check-in desk's list.
type deskRow struct {
	ID        string  `json:"id"`
	Number    int     `json:"number"`
	Name      string  `json:"name"`
	Club      *string `json:"club"`
	Status    string  `json:"status"`
	CheckedIn bool    `json:"checkedIn"`
}

// GET /tournaments/{tid}/rounds/{n}/checkin — organiser or arbiter: the
// check-in desk's list for round n, by number, with who is checked in (E-2).
func (a *API) checkInDesk(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := roundParam(c)
	if err != nil {
		return 0, nil, err
	}
	d, err := a.svc.CheckInDesk(c.ctx(), tid, a.eventCaller(c), n)
	if err != nil {
		return 0, nil, err
	}
	rows := make([]deskRow, len(d.Rows))
	for i, r := range d.Rows {
		p := r.Player
		rows[i] = deskRow{ID: p.ID, Number: r.Number, Name: p.Name, Club: clubOf(p.Club), Status: string(p.Status), CheckedIn: r.CheckedIn}
	}
	out := map[string]any{"round": n, "checkIn": d.T.Settings.CheckIn, "open": d.Open, "checkedIn": d.CheckedIn, "players": rows}
	if d.OpensAt != 0 {
		out["opensAt"] = rfc3339(d.OpensAt)
	}
	return http.StatusOK, out, nil
}

// checkInSettingsIn is POST /tournaments/{tid}/checkin: turn check-in on or
// off (before round 1), and when the next round's check-in opens (null or
// absent: unchanged; "" : at the previous round's pairing again).
type checkInSettingsIn struct {
	CheckIn *bool   `json:"checkIn"`
	OpensAt *string `json:"opensAt"`
}

// POST /tournaments/{tid}/checkin — organiser: the event's check-in (E-2).
func (a *API) configureCheckIn(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var in checkInSettingsIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	var opensAt *int64
	if in.OpensAt != nil {
		var ms int64
		if *in.OpensAt != "" {
			at, err := time.Parse(time.RFC3339, *in.OpensAt)
			if err != nil {
				return 0, nil, badRequest("invalid_field", "opensAt: want an RFC 3339 time such as 2026-12-06T08:30:00+08:00, or \"\" to open at the previous round's pairing")
			}
			ms = at.UnixMilli()
		}
		opensAt = &ms
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.ConfigureCheckIn{On: in.CheckIn, OpensAt: opensAt})
	if err != nil {
		return 0, nil, err
	}
	t := res.(*tournament.Tournament)
	out := map[string]any{"checkIn": t.Settings.CheckIn, "round": t.Round + 1, "open": t.CheckInOpen(t.Round+1, c.nowMs())}
	if at := t.CheckInOpensAt(t.Round + 1); at != 0 {
		out["opensAt"] = rfc3339(at)
	}
	return http.StatusOK, out, nil
}
